// The run report: an HTML page built from the run's events (what ARA gives Ansible users).
export { createReportCollector, type ReportData, type ReportPlay, type ReportTask, type ReportResult } from './collect.js';
export { renderReportHtml } from './html.js';
export { writeReport } from './write.js';
