// The detail screen's status tag (spec: API detail): the online status once the design is resolved
// (passed), otherwise the API status — both from their dictionaries.
import { useDict } from '../core/dicts';
import { dictTag } from '../crud/cells';
import type { ApiDesign } from './api';

export function StatusTag({ api }: { api: Pick<ApiDesign, 'apiStatus' | 'onlineStatus'> }) {
  const status = useDict('API_STATUS');
  const online = useDict('ONLINE_STATUS');
  return api.apiStatus === 2 ? dictTag(online, api.onlineStatus) : dictTag(status, api.apiStatus);
}
