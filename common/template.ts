// The one way the messages' `{name}` placeholders are filled, in the browser and on the server: from the values'
// own keys; a placeholder with no value stays as written, so a missing value shows.
export function fillMessage(template: string, vars: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (Object.hasOwn(vars, key) ? String(vars[key]) : whole));
}
