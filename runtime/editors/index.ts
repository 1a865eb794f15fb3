// Shared editors, one component each, used by every screen that edits SQL, parameters or shows results.
export { ParamTable, valuesOf, mergeJson, type ParamRow } from './ParamTable';
export { SqlEditor } from './SqlEditor';
export { ResultPane, formatResult } from './ResultPane';
export { SqlDiff } from './SqlDiff';
