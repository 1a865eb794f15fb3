// The embedded page (spec "Embedded page"; query src, authentication, key): the src page in a full-size
// frame. Only http(s) sources; with authentication set, the session token is appended under the name `key`.
import { Result } from 'antd';
import { useLocation } from 'react-router-dom';
import { getToken } from '../../core/session';

export function embeddedSrc(search: string, token: string | null): string | null {
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
  if (auth && auth !== 'false' && auth !== '0' && token) url.searchParams.set(q.get('key') || 'token', token);
  return url.toString();
}

export default function Embedded() {
  const { search } = useLocation();
  const src = embeddedSrc(search, getToken());
  if (!src) return <Result status="warning" title="无法嵌入该页面" subTitle="只能嵌入 http:// 或 https:// 地址" />;
  return <iframe title="嵌入页面" src={src} data-testid="embedded-frame" style={{ width: '100%', height: 'calc(100vh - 140px)', border: 0, display: 'block' }} />;
}
