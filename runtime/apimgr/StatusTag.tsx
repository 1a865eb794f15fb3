// The detail screen's status tag (spec: API detail): the online status once the design is resolved
// (a version has passed approval: the `resolve` flag), otherwise the API status — both from their
// dictionaries. A passed design being edited again (a new draft) still shows whether it is online.
// While a newer version is in the works and another serves (`pending`), both: 已上线 V1 · V2 待审批 — the same
// words and colours as the lists' status column (its `tags` declaration).
import { useDict } from '../core/dicts';
import { dictTag, DictTags } from '../ui/DictTags';
import type { ApiDesign } from './api';

export function StatusTag({ api }: { api: Pick<ApiDesign, 'apiStatus' | 'onlineStatus' | 'resolve' | 'pending' | 'pendingVersion'> & Partial<Pick<ApiDesign, 'onlineVersion'>> }) {
  const status = useDict('API_STATUS');
  const online = useDict('ONLINE_STATUS');
  if (api.pending) {
    const parts = [
      { field: 'onlineStatus', items: online, text: (label: string) => `${label} V${api.onlineVersion ?? ''}` },
      { field: 'apiStatus', items: status, text: (label: string) => `V${api.pendingVersion ?? ''} ${label}` },
    ];
    return <DictTags parts={parts} row={api} />;
  }
  return api.resolve ? dictTag(online, api.onlineStatus) : dictTag(status, api.apiStatus);
}
