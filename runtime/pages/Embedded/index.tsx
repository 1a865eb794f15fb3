// The embedded page (spec "Embedded page"; query src, authentication, key): the src page in a full-size
// frame. Only http(s) sources. With authentication set, the session token is appended under the name `key`,
// but only for the console's own origin or a site the server lists (EMBED_TOKEN_ORIGINS): a token in any
// other address would hand the account to whoever wrote the link. Such a page is shown without it, and says so.
// Without src there is nothing to show: an empty state says so (an empty src would frame the console in itself).
import { Alert, Empty, Result } from 'antd';
import { useStore } from '../../core/store';
import { useLocation } from 'react-router-dom';
import { getToken, sessionStore } from '../../core/session';

export interface EmbeddedSource {
  src: string;
  /** authentication was asked for, but the site may not have the token */
  withheld: boolean;
}

/** Whether the address names a page to embed at all (a missing or blank src does not). */
export function hasSrc(search: string): boolean {
  return (new URLSearchParams(search).get('src') ?? '').trim() !== '';
}

export function embeddedSrc(search: string, token: string | null, trusted: readonly string[] = []): EmbeddedSource | null {
  const q = new URLSearchParams(search);
  const raw = q.get('src') ?? '';
  let url: URL;
  try {
    url = new URL(raw, window.location.origin);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const auth = q.get('authentication');
  const wanted = Boolean(auth && auth !== 'false' && auth !== '0' && token);
  const allowed = url.origin === window.location.origin || trusted.includes(url.origin);
  if (wanted && allowed) url.searchParams.set(q.get('key') || 'token', token!);
  return { src: url.toString(), withheld: wanted && !allowed };
}

export default function Embedded() {
  const { search } = useLocation();
  const trusted = useStore(sessionStore, (s) => s.user?.embedTokenOrigins) ?? [];
  if (!hasSrc(search)) return <Empty data-testid="embedded-empty" style={{ marginTop: '20vh' }} description="未指定要嵌入的页面地址（src）" />;
  const source = embeddedSrc(search, getToken(), trusted);
  if (!source) return <Result status="warning" title="无法嵌入该页面" subTitle="只能嵌入 http:// 或 https:// 地址" />;
  return (
    <>
      {source.withheld && (
        <Alert
          type="warning"
          showIcon
          banner
          data-testid="embedded-withheld"
          message="该地址不在可信站点之列，未附带登录凭证（可信站点由管理员通过 EMBED_TOKEN_ORIGINS 设置）"
        />
      )}
      <iframe title="嵌入页面" src={source.src} data-testid="embedded-frame" style={{ width: '100%', height: 'calc(100vh - 140px)', border: 0, display: 'block' }} />
    </>
  );
}
