// The SQL script editor (query support, API configuration): monaco in SQL mode, loaded on first use, with
// the spec's script editor dialog (900 px wide, 400 px editor) one click away for long scripts. Both
// editors edit the same value, so closing the dialog keeps every keystroke.
import { useState } from 'react';
import { Button, Modal, Tooltip } from 'antd';
import { FullscreenOutlined } from '@ant-design/icons';
import { CodeEditor } from '../ui/CodeEditor';

export interface SqlEditorProps {
  value?: string;
  onChange?: (sql: string) => void;
  readOnly?: boolean;
  height?: number | string;
}

export const SCRIPT_DIALOG = { width: 900, editorHeight: 400 } as const;

export function SqlEditor({ value = '', onChange, readOnly, height = 240 }: SqlEditorProps) {
  const [open, setOpen] = useState(false);
  return (
    <div className="sql-editor" style={{ position: 'relative' }}>
      <CodeEditor language="sql" value={value} onChange={onChange} readOnly={readOnly} height={height} />
      <Tooltip title="放大编辑">
        <Button
          size="small"
          type="text"
          aria-label="放大编辑"
          icon={<FullscreenOutlined />}
          onClick={() => setOpen(true)}
          style={{ position: 'absolute', top: 4, right: 20, zIndex: 2, background: 'rgba(255,255,255,0.85)' }}
        />
      </Tooltip>
      <Modal
        title={readOnly ? '查看脚本' : '编辑脚本'}
        width={SCRIPT_DIALOG.width}
        open={open}
        onCancel={() => setOpen(false)}
        footer={
          <Button type="primary" onClick={() => setOpen(false)}>
            完成
          </Button>
        }
        destroyOnHidden
      >
        {open && <CodeEditor language="sql" value={value} onChange={onChange} readOnly={readOnly} height={SCRIPT_DIALOG.editorHeight} />}
      </Modal>
    </div>
  );
}
