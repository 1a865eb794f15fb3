// The decorationGlow kind's component, found by the registry (widgets/registry.ts) through this file.
export { DecorationGlow as default } from './DecorationGlow';
