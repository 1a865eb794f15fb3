// The wiki body editor: wangEditor (its own chunk, loaded when a document is edited). Images inserted,
// pasted or dropped upload through /doc/file/upload with the image service's server-side checks and go
// in by the URL it answers; no image is ever inlined as data, and network images are not offered
// (the server keeps only images of its own file service).
import { useEffect, useMemo, useState } from 'react';
import { Editor, Toolbar } from '@wangeditor/editor-for-react';
import type { IDomEditor, IEditorConfig, IToolbarConfig } from '@wangeditor/editor';
import '@wangeditor/editor/dist/css/style.css';
import { checkUpload, DEFAULT_UPLOAD } from '../../../common/uploads';

export interface RichEditorProps {
  /** the body to start from; the editor is uncontrolled after that */
  initialHtml: string;
  onChange(html: string): void;
  /** reports the editor's own reading of the initial body (its normal form), to compare edits against */
  onReady?(html: string): void;
  uploadImage(file: File): Promise<{ url: string; alt: string; href?: string }>;
  onError(message: string): void;
  height?: number | string;
}

const TOOLBAR: Partial<IToolbarConfig> = {
  excludeKeys: ['group-video', 'insertVideo', 'uploadVideo', 'insertImage', 'fullScreen'],
};

export default function RichEditor({ initialHtml, onChange, onReady, uploadImage, onError, height = 480 }: RichEditorProps) {
  const [editor, setEditor] = useState<IDomEditor | null>(null);
  const config = useMemo<Partial<IEditorConfig>>(
    () => ({
      placeholder: '请输入正文…',
      MENU_CONF: {
        uploadImage: {
          base64LimitSize: 0,
          maxFileSize: DEFAULT_UPLOAD.maxSizeMB * 1024 * 1024,
          maxNumberOfFiles: DEFAULT_UPLOAD.limit,
          allowedFileTypes: ['image/*'],
          async customUpload(file: File, insert: (src: string, alt: string, href: string) => void) {
            const fault = checkUpload(0, [file]);
            if (fault) return onError(fault);
            try {
              const r = await uploadImage(file);
              insert(r.url, r.alt, r.href ?? '');
            } catch {
              /* the request layer showed why */
            }
          },
        },
      },
    }),
    [uploadImage, onError],
  );
  // the editor instance is destroyed with the component (wangEditor keeps timers and listeners otherwise)
  useEffect(
    () => () => {
      editor?.destroy();
    },
    [editor],
  );
  return (
    <div className="wiki-editor" style={{ border: '1px solid #d9d9d9', borderRadius: 6, overflow: 'hidden' }}>
      <Toolbar editor={editor} defaultConfig={TOOLBAR} mode="default" style={{ borderBottom: '1px solid #d9d9d9' }} />
      <Editor
        defaultConfig={config}
        defaultHtml={initialHtml}
        mode="default"
        style={{ height, overflowY: 'hidden' }}
        onCreated={(e) => {
          setEditor(e);
          onReady?.(e.getHtml());
        }}
        onChange={(e) => onChange(e.getHtml())}
      />
    </div>
  );
}
