import type { WidgetProps } from '@rjsf/utils';
import { Button, Empty, Input, Modal, Space, Spin } from 'antd';
import { useEffect, useState } from 'react';
import type { ImageOption, PanelContext } from '../services';

/**
 * An image address (ui:widget image): typed in, or picked from the platform's image library (图片库) when the
 * host hands the panel `listImages`. Used by the canvas's 背景图片 and the image kind.
 */
export function ImageWidget({ id, value, onChange, disabled, readonly, options, placeholder, registry }: WidgetProps) {
  const listImages = (registry.formContext as PanelContext | undefined)?.services.listImages;
  const [open, setOpen] = useState(false);
  const text = typeof value === 'string' ? value : '';
  const off = disabled || readonly;
  return (
    <Space.Compact style={{ width: '100%' }}>
      <Input
        id={id}
        value={text}
        disabled={off}
        maxLength={typeof options.maxLength === 'number' ? options.maxLength : undefined}
        placeholder={placeholder || '图片地址'}
        allowClear
        onChange={(e) => onChange(e.target.value)}
      />
      {listImages && (
        <Button disabled={off} onClick={() => setOpen(true)}>
          图片库
        </Button>
      )}
      {listImages && open && (
        <ImageLibrary
          listImages={listImages}
          onPick={(url) => {
            onChange(url);
            setOpen(false);
          }}
          onClose={() => setOpen(false)}
        />
      )}
    </Space.Compact>
  );
}

function ImageLibrary({ listImages, onPick, onClose }: { listImages: (search: string) => Promise<ImageOption[]>; onPick: (url: string) => void; onClose: () => void }) {
  const [search, setSearch] = useState('');
  const [state, setState] = useState<{ loading: boolean; images: ImageOption[]; error?: string }>({ loading: true, images: [] });
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    listImages(search).then(
      (images) => live && setState({ loading: false, images }),
      () => live && setState({ loading: false, images: [], error: '图片库加载失败' }),
    );
    return () => {
      live = false;
    };
  }, [listImages, search]);
  return (
    <Modal open title="从图片库选择" footer={null} width={640} onCancel={onClose} data-testid="image-library">
      <Input.Search placeholder="按文件名搜索" allowClear maxLength={50} onSearch={setSearch} style={{ marginBottom: 12 }} />
      <Spin spinning={state.loading}>
        {state.images.length === 0 ? (
          <Empty description={state.error ?? (state.loading ? '加载中' : '图片库中没有图片')} />
        ) : (
          <div style={{ display: 'grid', gridTemplateColumns: 'repeat(4, 1fr)', gap: 8, maxHeight: 420, overflow: 'auto' }}>
            {state.images.map((img) => (
              <button
                key={img.url}
                type="button"
                title={img.name}
                onClick={() => onPick(img.url)}
                style={{ border: '1px solid #d9d9d9', borderRadius: 4, padding: 4, background: '#fafafa', cursor: 'pointer', textAlign: 'center' }}
              >
                <img src={img.url} alt={img.name} style={{ width: '100%', height: 80, objectFit: 'contain', display: 'block' }} />
                <span style={{ display: 'block', fontSize: 12, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{img.name}</span>
              </button>
            ))}
          </div>
        )}
      </Spin>
    </Modal>
  );
}
