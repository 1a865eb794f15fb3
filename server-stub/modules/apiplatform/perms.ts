// The permissions of the API platform, as granted to roles in schemas/menus/roles.json.
export const PERM = {
  designList: 'api:design:list',
  designAdd: 'api:design:add',
  designEdit: 'api:design:edit',
  designRemove: 'api:design:remove',
  /** the test button (runs SQL on a data source) */
  designExecute: 'api:design:execute',
  designSubmit: 'api:design:submit',
  /** the spec's named permission for editing the group tree */
  group: 'api.config.list.group',
  approveList: 'api:approve:list',
  approve: 'api:approve:resolve',
  /** putting a passed version online, and taking an API offline */
  online: 'api:approve:online',
  keyList: 'api:key:list',
  keyAdd: 'api:key:add',
  keyRemove: 'api:key:remove',
  /** setting a key's rate limit, quota and allowed addresses, and reading any key's usage */
  keyLimit: 'api:key:limit',
  /** API 监控: the counters, the slowest calls, the alert rules' states */
  monitor: 'api:monitor:list',
  /** setting an API's alert rule */
  alert: 'api:monitor:alert',
  /** the API picker of the widget data-source tab */
  picker: 'api:online:list',
} as const;
