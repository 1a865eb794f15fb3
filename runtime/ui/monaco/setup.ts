// Monaco bundled by Vite (closed network: never a CDN). Workers come through
// `?worker` imports so they are emitted as local chunks. This module is only
// reached through dynamic import(), so monaco stays out of the main bundle.
import * as monaco from 'monaco-editor';
import EditorWorker from 'monaco-editor/esm/vs/editor/editor.worker?worker';
import JsonWorker from 'monaco-editor/esm/vs/language/json/json.worker?worker';

type Env = { getWorker(id: string, label: string): Worker };
const g = self as unknown as { MonacoEnvironment?: Env };
// Another module (designer, widgets) may have set the environment already; keep theirs.
g.MonacoEnvironment ??= {
  getWorker(_id, label) {
    return label === 'json' ? new JsonWorker() : new EditorWorker();
  },
};

export { monaco };
