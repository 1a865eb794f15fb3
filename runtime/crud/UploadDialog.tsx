import { useMemo, useRef, useState } from 'react';
import { Button, Modal, Upload } from 'antd';
import type { UploadFile } from 'antd';
import { InboxOutlined } from '@ant-design/icons';
import { createForm } from '@formily/core';
import { Form } from '@formily/antd-v5';
import type { ISchema } from '@formily/react';
import type { DialogDecl, Row } from './types';
import { useCrudServices } from './services';
import { useFeedback } from './feedback';
import { checkUpload, DEFAULT_UPLOAD } from '../../common/uploads';
import { dialogTitle, formSchemaFor } from './dialog-schema';
import { parseCall } from './template';
import { msg } from './messages';
import { SchemaField } from './FormDialog';

interface Props {
  dialog: DialogDecl;
  pageTitle: string;
  onSaved(): void;
  onClose(): void;
}

/** Upload dialog (400 px): the spec's client rules, one request and one progress bar per file. */
export function UploadDialog({ dialog, pageTitle, onSaved, onClose }: Props) {
  const services = useCrudServices();
  const { message } = useFeedback();
  const rules = { ...DEFAULT_UPLOAD, ...dialog.upload };
  const field = dialog.upload?.field ?? 'files';
  const [files, setFiles] = useState<UploadFile[]>([]);
  const [busy, setBusy] = useState(false);
  const form = useMemo(() => createForm({ initialValues: { ...(dialog.defaults ?? {}) } }), [dialog]);
  const schema = useMemo(() => formSchemaFor(dialog, 'new'), [dialog]);
  const hasFields = Object.keys(dialog.schema.properties).length > 0;
  // antd calls beforeUpload once per file of a batch; judge the batch once
  const batchVerdict = useRef(new WeakMap<object, string | null>());

  const beforeUpload = (file: File & { uid: string }, batch: File[]) => {
    let verdict = batchVerdict.current.get(batch);
    if (verdict === undefined) {
      verdict = checkUpload(files.length, batch, rules);
      batchVerdict.current.set(batch, verdict);
      if (verdict) message.error(verdict);
    }
    if (verdict) return Upload.LIST_IGNORE;
    setFiles((prev) => [...prev, { uid: file.uid, name: file.name, size: file.size, originFileObj: file as never }]);
    return false;
  };

  const confirm = async () => {
    if (files.length === 0) {
      message.warning(msg('uploadEmpty'));
      return;
    }
    try {
      await form.validate();
    } catch {
      return;
    }
    const { path } = parseCall(rules.api ?? 'POST /file/image/uploadImage');
    setBusy(true);
    let failed = false;
    for (const f of files) {
      if (f.status === 'done') continue; // uploaded by an earlier attempt
      const fd = new FormData();
      fd.append(field, f.originFileObj as File);
      for (const [k, v] of Object.entries(form.values as Row)) if (v !== undefined && v !== null) fd.append(k, String(v));
      const set = (patch: Partial<UploadFile>) => setFiles((prev) => prev.map((x) => (x.uid === f.uid ? { ...x, ...patch } : x)));
      set({ status: 'uploading', percent: 0 });
      try {
        await services.upload(path, fd, (p) => set({ status: 'uploading', percent: Math.round(p) }));
        set({ status: 'done', percent: 100 });
      } catch {
        failed = true;
        set({ status: 'error' });
      }
    }
    setBusy(false);
    if (!failed) {
      message.success(msg('uploadSuccess'));
      onSaved();
      onClose();
    } else {
      onSaved();
    }
  };

  return (
    <Modal
      open
      title={dialog.titles?.new ?? dialogTitle(dialog, 'new', pageTitle)}
      width={dialog.width ?? 400}
      onCancel={onClose}
      maskClosable={false}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={onClose}>取消</Button>,
        <Button key="ok" type="primary" loading={busy} onClick={confirm} data-testid="dialog-ok">确定</Button>,
      ]}
    >
      {hasFields && (
        <Form form={form} layout="vertical" feedbackLayout="terse">
          <SchemaField schema={schema as ISchema} />
        </Form>
      )}
      <Upload.Dragger
        multiple
        accept={rules.accept}
        fileList={files}
        beforeUpload={beforeUpload as never}
        onRemove={(f) => setFiles((prev) => prev.filter((x) => x.uid !== f.uid))}
        progress={{ strokeWidth: 3, showInfo: true }}
        disabled={busy}
      >
        <p className="ant-upload-drag-icon"><InboxOutlined /></p>
        <p className="ant-upload-text">将文件拖到此处，或点击上传</p>
        <p className="ant-upload-hint">
          只能上传{rules.accept}文件，每次最多{rules.limit}个，单个不超过{rules.maxSizeMB}MB
        </p>
      </Upload.Dragger>
    </Modal>
  );
}
