// The carousel kind's component, found by the registry (widgets/registry.ts) through this file.
export { Carousel as default } from './Carousel';
