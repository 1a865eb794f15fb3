// The runtime core in one import.
export * from './request';
export * from './session';
export * from './permission';
export * from './dicts';
export * from './crypto';
export * from './chunk';
export * from './feedback';
export * from './settle';
export * from './busy';
export * from './messages';
export * from './store';
export * from './validate';
export { browser } from './browser';
