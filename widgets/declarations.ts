// Every widget kind's declaration, widgets/<widgetName>/<widgetName>.widget.json, keyed by widgetName.
// A kind is one folder: this declaration, its component (through the folder's index.ts, see registry.ts)
// and its story. The server reads the same files (server-stub/core/schemas.ts).
import type { WidgetDeclaration } from './types';

const files = import.meta.glob('./*/*.widget.json', { eager: true, import: 'default' }) as Record<string, WidgetDeclaration>;

export const widgetDeclarations: Readonly<Record<string, WidgetDeclaration>> = Object.fromEntries(
  Object.entries(files).map(([file, d]) => {
    // the folder, the file and widgetName are one name (the server refuses to start otherwise, too)
    if (file !== `./${d.widgetName}/${d.widgetName}.widget.json`) throw new Error(`部件声明 widgets${file.slice(1)} 的 widgetName「${d.widgetName}」应与文件夹和文件名一致`);
    return [d.widgetName, d];
  }),
);
