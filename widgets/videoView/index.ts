// The videoView kind's component, found by the registry (widgets/registry.ts) through this file.
export { VideoView as default } from './VideoView';
