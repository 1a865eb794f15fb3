import { useMemo, useState } from 'react';
import { Button, Modal } from 'antd';
import { createForm, onFormInputChange } from '@formily/core';
import { createSchemaField, type ISchema } from '@formily/react';
import { ArrayTable, Checkbox, DatePicker, Form, FormItem, Input, NumberPicker, Password, Radio, Select, Switch } from '@formily/antd-v5';
import type { DialogDecl, DialogMode, Row } from './types';
import { DISCARD_CONFIRM, useLeaveGuard } from '../core/leaveGuard';
import { useCrudServices } from './services';
import { useFeedback } from './feedback';
import { dialogTitle, formSchemaFor, initialValuesFor } from './dialog-schema';
import { runConnectionTest } from './connectionTest';
import { parseCall } from './template';
import { msg } from './messages';
import { DictSelect } from './fields/DictSelect';
import { DictRadio } from './fields/DictRadio';
import { EncryptPassword } from './fields/EncryptPassword';
import { ExplainedInput } from './fields/ExplainedInput';
import { CheckTree } from './fields/CheckTree';
import { RemoteSelect, RemoteTreeSelect } from './fields/RemoteSelect';
import { RelationSelect } from './fields/RelationSelect';
import { CodeEditor } from '../ui/CodeEditor';
import { RevealModal, revealedValue } from './RevealModal';

// One SchemaField for all dialogs: these names are what declarations may use in x-component.
export const SchemaField = createSchemaField({
  components: { FormItem, Input, Password, Select, NumberPicker, Switch, Radio, Checkbox, DatePicker, DictSelect, DictRadio, EncryptPassword, ExplainedInput, CodeEditor, CheckTree, RemoteSelect, RemoteTreeSelect, RelationSelect, ArrayTable },
});

export interface FormDialogProps {
  dialog: DialogDecl;
  mode: DialogMode;
  row?: Row;
  /** values a new record starts with over the declared defaults */
  preset?: Row;
  rowKey: string;
  pageTitle: string;
  saveCall?: string;
  /** the page's related-record options call (RelationSelect fields) */
  optionsCall?: string;
  successText?: string;
  /** sends the values instead of the save call (an action's form: its call with the row's parameters) */
  submit?: (values: Row) => Promise<unknown>;
  onSaved(): void;
  onClose(): void;
}

/** The add / copy / edit dialog. Mounted per opening, so closing throws the form (values and errors) away. */
export function FormDialog({ dialog, mode, row, preset, rowKey, pageTitle, saveCall, optionsCall, successText, submit, onSaved, onClose }: FormDialogProps) {
  const services = useCrudServices();
  const { message } = useFeedback();
  // edited: the user typed or picked something (Formily's input event, not values set by defaults or reactions)
  const [edited, setEdited] = useState(false);
  const form = useMemo(
    () => createForm({ initialValues: initialValuesFor(dialog, mode, row, rowKey, preset), effects: () => onFormInputChange(() => setEdited(true)) }),
    [dialog, mode, row, rowKey, preset],
  );
  const schema = useMemo(() => formSchemaFor(dialog, mode, row, { options: optionsCall }), [dialog, mode, row, optionsCall]);
  const [saving, setSaving] = useState(false);
  const [testing, setTesting] = useState(false);
  // a value the save answered once (a new key): shown until the user closes the dialog, never fetched again
  const [revealed, setRevealed] = useState<string | null>(null);
  const { modal } = useFeedback();
  // an edited dialog is not thrown away unasked: closing it (×, 取消, Esc) asks, and so do reload and the shell
  useLeaveGuard(edited && revealed === null, { discard: onClose });
  const close = () => {
    if (!edited) return onClose();
    modal.confirm({ title: '提示', content: DISCARD_CONFIRM, okText: '不保存', okButtonProps: { danger: true }, cancelText: '取消', onOk: onClose });
  };

  const values = (): Row => {
    const v = { ...(form.values as Row) };
    if (mode === 'edit' && row && row[rowKey] !== undefined) v[rowKey] = row[rowKey];
    return v;
  };

  const save = async () => {
    try {
      await form.validate();
    } catch {
      return; // messages are already under the fields
    }
    if (!saveCall && !submit) return;
    setSaving(true);
    try {
      let answer: unknown;
      if (submit) answer = await submit(values());
      else {
        const { method, path } = parseCall(saveCall!, values());
        answer = await services.request<Row | null>(method, path, { body: values() });
      }
      message.success(successText ?? (mode === 'copy' ? msg('copySuccess') : msg('saveSuccess')));
      onSaved();
      const once = revealedValue(dialog.reveal, answer);
      if (once !== undefined) setRevealed(once);
      else onClose();
    } catch {
      // the request layer already showed the server's message; keep the dialog open
    } finally {
      setSaving(false);
    }
  };

  const test = async () => {
    const t = dialog.test;
    if (!t) return;
    try {
      await form.validate();
    } catch {
      return;
    }
    setTesting(true);
    try {
      const { method, path } = parseCall(t.api, values());
      // false: the server's reason after the declared failure text (连接失败：等待超时（10秒内没有应答）)
      const { ok, text } = await runConnectionTest(services, method, path, t.send === 'id' ? { params: { id: values()[rowKey] } } : { body: values() }, t);
      if (ok) message.success(text);
      else message.error(text);
    } catch {
      // shown by the request layer
    } finally {
      setTesting(false);
    }
  };

  if (revealed !== null && dialog.reveal) return <RevealModal decl={dialog.reveal} value={revealed} width={dialog.width} onClose={onClose} />;

  return (
    <Modal
      open
      title={dialogTitle(dialog, mode, pageTitle)}
      width={dialog.width ?? 500}
      onCancel={close}
      maskClosable={false}
      destroyOnHidden
      footer={[
        dialog.test && (
          <Button key="test" onClick={test} loading={testing} data-testid="dialog-test">
            {dialog.test.label ?? '测试连接'}
          </Button>
        ),
        <Button key="cancel" onClick={close}>取消</Button>,
        <Button key="ok" type="primary" onClick={save} loading={saving} data-testid="dialog-ok">确定</Button>,
      ]}
    >
      <Form form={form} labelCol={6} wrapperCol={17} feedbackLayout="terse">
        <SchemaField schema={schema as ISchema} />
      </Form>
    </Modal>
  );
}
