// The marquee kind's component, found by the registry (widgets/registry.ts) through this file.
export { Marquee as default } from './Marquee';
