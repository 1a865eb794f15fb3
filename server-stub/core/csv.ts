// CSV downloads (form entries, a declared list page's 导出, the logs): UTF-8 with a BOM so spreadsheet programs
// read Chinese, every cell quoted, and a cell a sheet would run as a formula disarmed.

/** One CSV cell: quoted, quotes doubled, and a leading = + - @ tab or CR disarmed so no sheet runs it as a formula. */
export function csvCell(text: string): string {
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** One CSV line of cells. */
export const csvLine = (cells: string[]): string => `${cells.map(csvCell).join(',')}\r\n`;

/** What starts a CSV file: the byte-order mark that tells spreadsheet programs it is UTF-8. */
export const CSV_BOM = '\uFEFF';

/** Content-Disposition for a download named in any language (RFC 6266 / RFC 5987), with an ASCII fallback. */
export function attachment(name: string, fallback: string): string {
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
