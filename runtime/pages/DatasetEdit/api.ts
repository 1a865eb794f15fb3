// The dataset editor's calls (server-stub/modules/dataset). Refusals come back as rejected promises whose message is
// the server's Chinese reason; the request layer has already shown it unless a call is `silent`.
import { get, post } from '../../core/request';
import type { DatasetField, FieldType } from '../../../common/dataset';
import type { DatasetInfo } from './model';

const P = '/dataset';

export interface SourceOption {
  id: number;
  label: string;
  dbType: string;
}
export interface TableOption {
  name: string;
  schema: string | null;
  table: string;
  kind: 'table' | 'view';
}
export interface GroupRow {
  id: number;
  parentId: number;
  name: string;
}
export interface PreviewAnswer {
  fields: DatasetField[];
  rows: Array<Record<string, unknown>>;
  total: number;
}

export const datasetCalls = {
  info: (id: number) => get<DatasetInfo>(`${P}/info/get`, { id }),
  save: (body: unknown) => post<number>(`${P}/info/save`, body, { silent: true }),
  groups: () => post<GroupRow[]>(`${P}/group/select`),
  // names only (not /gemini/datasource/select, which needs the data-source permissions a designer lacks)
  sources: () => get<SourceOption[]>(`${P}/source/select`),
  tables: (dsId: number) => post<TableOption[]>(`${P}/source/tables`, { dsId }),
  columns: (dsId: number, t: { schema: string | null; table: string }) => post<Array<{ name: string; type: FieldType }>>(`${P}/source/columns`, { dsId, schema: t.schema, table: t.table }),
  fields: (body: unknown) => post<DatasetField[]>(`${P}/fields`, body),
  preview: (body: unknown) => post<PreviewAnswer>(`${P}/preview`, body, { silent: true }),
};
