// What the sign-in page says when a sign-in through the company's OpenID provider did not finish. The server sends
// the browser back to /login?ssoError=<code> (never free text: an address anyone can write must not put words on
// the sign-in page); the sign-in log keeps the full reason.
export const SSO_ERRORS = {
  expired: '企业账号登录已过期或不是从本页发起的，请重新登录',
  down: '企业身份提供方暂时无法连接，请稍后再试或使用本地账号登录',
  rejected: '企业身份提供方的应答未通过校验，请联系管理员',
  cancelled: '企业账号登录未完成（已取消或被拒绝）',
  disabled: '未启用企业账号登录',
  no_role: '账号未获授权：您所在的组没有对应的角色，请联系管理员在「身份映射」中配置',
  clash: '本系统已有同名账号或该账号已关联另一个企业身份，不能用此身份登录，请联系管理员',
  refused: '账号已停用、已删除或不在有效期内，请联系管理员',
} as const;

export type SsoErrorCode = keyof typeof SSO_ERRORS;

/** The words for a code in the address; anything else is not shown. */
export function ssoErrorText(code: string | null): string | null {
  return code && Object.prototype.hasOwnProperty.call(SSO_ERRORS, code) ? SSO_ERRORS[code as SsoErrorCode] : null;
}
