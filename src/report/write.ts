// Writing the report file atomically, so a viewer never sees half a page.
import { writePrivateFileSync } from '../private-files.js';
import type { ReportData } from './collect.js';
import { renderReportHtml } from './html.js';

export function writeReport(file: string, data: ReportData): void {
  // 0600: the report holds diffs and failures.
  writePrivateFileSync(file, renderReportHtml(data));
}
