// An image column's picture that a call answers with the session (`type: "image"` with `api`), e.g. a screen's
// thumbnail, which only those who may see the list may read: fetched as a blob (services.fetchBlob), shown from an
// object URL released when the cell goes. A row whose field is empty, or whose picture cannot be had, shows the
// column's neutral placeholder; the field's value goes into the call (`params`), so a new picture is a new address.
import { useEffect, useState } from 'react';
import { Image } from 'antd';
import { PictureOutlined } from '@ant-design/icons';
import { useCrudServices } from './services';
import { fillParams, parseCall } from './template';
import type { ColumnDecl, Row } from './types';

export const IMAGE_SIZE = 40;

/** The neutral box an image column shows where there is no picture (`placeholder` names it). */
export function ImagePlaceholder({ width, height, text }: { width: number; height: number; text?: string }) {
  return (
    <div
      data-testid="image-placeholder"
      role="img"
      aria-label={text || '无图片'}
      style={{ width, height, display: 'inline-flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: 2, background: '#f5f5f5', border: '1px dashed #d9d9d9', borderRadius: 4, color: '#8c8c8c', fontSize: 12, lineHeight: 1.2, verticalAlign: 'middle' }}
    >
      <PictureOutlined style={{ fontSize: Math.min(20, height / 3) }} />
      {text && height >= 48 ? <span>{text}</span> : null}
    </div>
  );
}

export function RemoteImage({ col, row, alt }: { col: ColumnDecl; row: Row; alt: string }) {
  const services = useCrudServices();
  const width = col.imageWidth ?? IMAGE_SIZE;
  const height = col.imageHeight ?? IMAGE_SIZE;
  const value = col.field ? row[col.field] : undefined;
  const has = value !== undefined && value !== null && value !== '';
  const { path } = parseCall(col.api!, row);
  const params = JSON.stringify(fillParams(col.params, row));
  const [state, setState] = useState<{ key: string; url: string | null; failed: boolean }>({ key: '', url: null, failed: false });
  const key = `${path}?${params}`;
  useEffect(() => {
    if (!has || !services.fetchBlob) return;
    let live = true;
    let made: string | null = null;
    services.fetchBlob(path, JSON.parse(params) as Record<string, unknown>).then(
      (blob) => {
        if (!live) return;
        made = URL.createObjectURL(blob);
        setState({ key, url: made, failed: false });
      },
      () => live && setState({ key, url: null, failed: true }),
    );
    return () => {
      live = false;
      if (made) URL.revokeObjectURL(made);
    };
  }, [has, path, params, key, services]);
  if (!has || !services.fetchBlob || (state.key === key && state.failed)) return <ImagePlaceholder width={width} height={height} text={col.placeholder} />;
  if (state.key !== key || !state.url) return <div aria-busy="true" style={{ width, height, background: '#fafafa', borderRadius: 4 }} />;
  return <Image src={state.url} width={width} height={height} alt={alt} style={{ objectFit: 'cover', borderRadius: 4 }} />;
}
