// Test-only: extra widget kinds for the datav suites, made from a shipped declaration with a catalogue of their own.
import type { FastifyInstance } from 'fastify';

type Declarations = FastifyInstance['ctx']['schemas']['widgets'];
type Declaration = Declarations[string];

/** Registers a copy of kind `from` as `name` with `catalogue` over its own; answers the copy for further edits. */
export function addTestKind(app: FastifyInstance, from: string, name: string, catalogue: Partial<Declaration['catalogue']>): Declaration {
  const widgets: Declarations = app.ctx.schemas.widgets;
  const kind = structuredClone(widgets[from]);
  kind.widgetName = name;
  kind.catalogue = { ...kind.catalogue, ...catalogue };
  widgets[name] = kind;
  return kind;
}
