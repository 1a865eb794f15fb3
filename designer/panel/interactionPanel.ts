// The 交互 tab (issue 23 §6): what a click on the widget does, from schemas/widgets/interaction.panel.json (the model
// and its checks: common/interaction.ts). The variable a linkage writes is chosen from the canvas's declared
// variables when there are some; the save checks the names either way.
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import declaration from '../../schemas/widgets/interaction.panel.json';
import { defaultsOf } from '../../common/widgets';
import type { InteractionProps } from '../../common/interaction';
import type { ScreenVariable } from '../../common/variables';

export const interactionSchema = declaration.schema as RJSFSchema;
export const interactionUiSchema = declaration.uiSchema as UiSchema;
export const interactionDefaults = defaultsOf(interactionSchema) as InteractionProps;

/** The panel's schema for a canvas: the linkage's variable is one of the declared variables (else free text). */
export function interactionSchemaFor(variables: readonly ScreenVariable[] | undefined): RJSFSchema {
  if (!variables?.length) return interactionSchema;
  const schema = structuredClone(declaration.schema) as any;
  const variable = schema.properties.linkage.items.properties.variable;
  variable.oneOf = variables.map((v) => ({ const: v.name, title: v.title ? `${v.title}（${v.name}）` : v.name }));
  variable.default = variables[0].name;
  return schema as RJSFSchema;
}
