// The image-upload field's control: value is the list of stored image URLs. Files go through the form's
// upload (the image service's server-side checks); the client checks type and size first to spare a trip.
import { useState } from 'react';
import { Upload } from 'antd';
import type { UploadFile } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { checkUpload, DEFAULT_UPLOAD } from '../../common/uploads';
import { useFormRun } from './context';

interface Props {
  value?: string[];
  onChange?(v: string[]): void;
  maxCount?: number;
  disabled?: boolean;
}

export function ImageInput({ value, onChange, maxCount = 1, disabled }: Props) {
  const run = useFormRun();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(0);
  const urls = Array.isArray(value) ? value : [];
  const files: UploadFile[] = urls.map((url, i) => ({ uid: `${i}-${url}`, name: url.split('/').pop() ?? url, status: 'done', url }));
  return (
    <div>
      <Upload
        listType="picture-card"
        accept={DEFAULT_UPLOAD.accept}
        fileList={files}
        disabled={disabled || !run}
        maxCount={maxCount}
        onRemove={(f) => onChange?.(urls.filter((u) => u !== f.url))}
        beforeUpload={(file) => {
          const fault = checkUpload(urls.length + busy, [file], { ...DEFAULT_UPLOAD, limit: maxCount });
          setError(fault);
          return fault ? Upload.LIST_IGNORE : true;
        }}
        customRequest={({ file, onSuccess, onError }) => {
          if (!run) return;
          setBusy((n) => n + 1);
          run
            .uploadImage(file as File)
            .then((r) => {
              onChange?.([...urls, r.url].slice(0, maxCount));
              onSuccess?.(r);
            })
            .catch((e: Error) => {
              setError(e.message || '上传失败');
              onError?.(e);
            })
            .finally(() => setBusy((n) => n - 1));
        }}
        showUploadList={{ showPreviewIcon: false }}
      >
        {urls.length + busy < maxCount && (
          // on the canvas, not on a white box: the field's label colour keeps it readable (widgets/contrast.test.ts)
          <div style={{ color: 'var(--field-color, inherit)' }}>
            <PlusOutlined />
            <div style={{ marginTop: 4, fontSize: 12 }}>上传图片</div>
          </div>
        )}
      </Upload>
      {error && <div style={{ color: '#ff4d4f', fontSize: 12 }}>{error}</div>}
    </div>
  );
}
