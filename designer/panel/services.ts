// What the host (designer, preview, stories) can hand the panel; nothing here is faked.
import type { DataRow, FetchApiData, FetchDataset } from '../../widgets';
import type { DatasetField } from '../../common/dataset';
import type { DictItem } from './dicts';
import type { ScreenVariable } from '../../common/variables';

export interface ApiOption {
  apiName: string;
  apiComment?: string;
  /** Request parameters as JSON text (spec: reqParams). */
  reqParams?: string;
  respResult?: string;
}

/** An image of the platform's image library (图片库): its file name and address. */
export interface ImageOption {
  name: string;
  url: string;
}

/** A field of the form being designed (for the field logic editor and the cascade picker). */
export interface PageField {
  field: string;
  label: string;
  widgetName: string;
  /** a choice field's options */
  options?: Array<{ label: string; value: string | number }>;
}

export interface PanelServices {
  /** The form designer: the fields on the form now (bottom layer first). */
  formFields?: () => PageField[];
  /** The image library's images whose name contains `search` (POST /file/image/searchImageList). */
  listImages?: (search: string) => Promise<ImageOption[]>;
  /** Published APIs to choose from (spec "API picker", GET .../api/query?search). */
  listApis?: (search: string) => Promise<ApiOption[]>;
  /** Runs a published API; the same function the widgets use. */
  fetchApiData?: FetchApiData;
  /** Datasets to choose from (issue 35) and one dataset's fields; dataset answers, as the widgets get them. */
  listDatasets?: (search: string) => Promise<Array<{ id: number; name: string }>>;
  datasetFields?: (id: number) => Promise<DatasetField[]>;
  fetchDataset?: FetchDataset;
  /** Dictionary items; defaults to the built-in schemas/dicts. */
  dict?: (type: string) => DictItem[];
  /**
   * The variables the canvas declares (issue 23), for the pickers of a filter's variable and of a request
   * parameter's binding; the designer hands the current list.
   */
  variables?: readonly ScreenVariable[];
}

export interface PanelContext {
  services: PanelServices;
  /** The whole form value as edited (valid or not), for fields that depend on siblings. */
  rootData: unknown;
}

export type { DataRow };
