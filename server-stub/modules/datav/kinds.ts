// The two configurations of the one designer backend: screens (大屏) under /api/datav/screen and forms
// (表单) under /api/jimu/form. Same routes, same tables; the kind, the permissions and the noun differ.
import type { PageKind } from './tables.js';

export interface KindConfig {
  kind: PageKind;
  /** the module's route prefix */
  prefix: string;
  /** the Chinese noun of the messages */
  noun: '大屏' | '表单';
  perm: { list: string; add: string; edit: string; remove: string };
}

const perms = (base: string) => ({ list: `${base}:list`, add: `${base}:add`, edit: `${base}:edit`, remove: `${base}:remove` });

export const SCREEN: KindConfig = { kind: 'screen', prefix: '/api/datav/screen', noun: '大屏', perm: perms('datav:screen') };
export const FORM: KindConfig = { kind: 'form', prefix: '/api/jimu/form', noun: '表单', perm: perms('jimu:form') };

/** Limits of a page and its widget list. */
export const LIMITS = {
  pageName: 50,
  size: 999999,
  refreshSeconds: 86400,
  color: 30,
  theme: 20,
  backgroundImage: 2000,
  presetLines: 200,
  presetLineChars: 20_000,
  widgets: 2000,
  widgetPropsBytes: 200 * 1024,
  /** the widget/update route's body limit */
  updateBodyBytes: 10 * 1024 * 1024,
  /** a form submission's body limit (fill/submit) */
  submitBodyBytes: 256 * 1024,
} as const;

/** Canvas defaults of a new page (spec §3, §9). */
export const PAGE_DEFAULTS = { width: 1920, height: 1080 } as const;

export function messagesOf(noun: string) {
  return {
    notFound: `${noun}不存在`,
    nameRequired: `请输入${noun}名称`,
    nameTooLong: `${noun}名称不能超过${LIMITS.pageName}个字符`,
    size: (what: '宽度' | '高度') => `${what}只能是1到${LIMITS.size}之间的整数`,
    color: '背景颜色格式不正确（支持 #rgb、#rrggbb、#rrggbbaa、rgb()、rgba()，最多30个字符）',
    theme: '主题不正确',
    backgroundImage: '背景图片地址不正确（支持图片库中的图片、以 / 开头的本站路径或 http(s) 网址，最多2000个字符）',
    refresh: `刷新间隔只能是1到${LIMITS.refreshSeconds}之间的整数（秒）`,
    presetLine: `参考线最多${LIMITS.presetLines}条`,
    stale: (n: number) => `该${noun}已被他人修改（当前版本 ${n}），请刷新后再保存`,
    widgetNotFound: '部件不存在',
    unknownWidget: (name: string) => `未知部件：${name}`,
    maxUse: (title: string, max: number) => `【${title}】最多只能添加 ${max} 个`,
    tooManyWidgets: `一个${noun}最多只能有 ${LIMITS.widgets} 个部件`,
    pageIdMissing: '缺少页面编号（pageId）',
    pageIdMismatch: (i: number) => `第 ${i + 1} 个部件的页面编号（pageId）与所保存的${noun}不一致`,
    duplicateId: (id: string) => `部件编号重复：${id}`,
    idTaken: (id?: string) => (id ? `部件编号 ${id} 已被其他页面使用` : '部件编号已被其他页面使用'),
    propsTooLarge: (title: string) => `部件【${title}】的属性过大（不能超过 ${LIMITS.widgetPropsBytes / 1024} KB）`,
    badProps: (title: string, detail: string) => `部件【${title}】的属性不合法：${detail}`,
    notForKind: (title: string) => `【${title}】不能用于${noun}`,
    fieldEmpty: (label: string) => `部件【${label}】的字段名不能为空`,
    fieldReserved: (label: string, field: string) => `部件【${label}】的字段名 ${field} 是保留名，请换一个`,
    fieldBounds: (label: string, low: string, high: string) => `部件【${label}】的${low}不能大于${high}`,
    fieldDuplicate: (label: string, field: string, other: string) => `部件【${label}】的字段名 ${field} 与部件【${other}】重复`,
    fillAccess: '填写权限只能是 login（登录用户）或 public（任何人）',
    accepting: '是否收集只能是 1（收集中）或 0（已停止）',
  };
}

export type KindMessages = ReturnType<typeof messagesOf>;
