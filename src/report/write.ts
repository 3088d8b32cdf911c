// Writing the report file atomically, so a viewer never sees half a page.
import { renameSync, writeFileSync } from 'node:fs';
import type { ReportData } from './collect.js';
import { renderReportHtml } from './html.js';

export function writeReport(file: string, data: ReportData): void {
  const tmp = `${file}.tmp-${process.pid}`;
  writeFileSync(tmp, renderReportHtml(data));
  renameSync(tmp, file);
}
