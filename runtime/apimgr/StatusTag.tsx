// The detail screen's status tag (spec: API detail): the online status once the design is resolved
// (a version has passed approval: the `resolve` flag), otherwise the API status — both from their
// dictionaries. A passed design being edited again (a new draft) still shows whether it is online.
import { useDict } from '../core/dicts';
import { dictTag } from '../crud/cells';
import type { ApiDesign } from './api';

export function StatusTag({ api }: { api: Pick<ApiDesign, 'apiStatus' | 'onlineStatus' | 'resolve'> }) {
  const status = useDict('API_STATUS');
  const online = useDict('ONLINE_STATUS');
  return api.resolve ? dictTag(online, api.onlineStatus) : dictTag(status, api.apiStatus);
}
