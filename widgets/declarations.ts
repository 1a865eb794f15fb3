// Every schemas/widgets/*.widget.json, keyed by widgetName. Adding a kind = one JSON file
// plus its component in registry.ts.
import type { WidgetDeclaration } from './types';

const files = import.meta.glob('../schemas/widgets/*.widget.json', { eager: true, import: 'default' }) as Record<string, WidgetDeclaration>;

export const widgetDeclarations: Readonly<Record<string, WidgetDeclaration>> = Object.fromEntries(
  Object.values(files).map((d) => [d.widgetName, d]),
);
