// The imageView kind's component, found by the registry (widgets/registry.ts) through this file.
export { ImageView as default } from './ImageView';
