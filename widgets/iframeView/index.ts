// The iframeView kind's component, found by the registry (widgets/registry.ts) through this file.
export { IframeView as default } from './IframeView';
