import catalogue from '../../schemas/messages/zh-CN.json';
import { fill } from './template';

type Key = keyof typeof catalogue.messages;
/** A message from the spec catalogue, with `{x}` placeholders filled. */
export function msg(key: Key, values: Record<string, unknown> = {}): string {
  return fill(catalogue.messages[key], values);
}

/** The catalogue text with its `{x}` placeholders left in, for templates filled later from a row. */
export function template(key: Key): string {
  return catalogue.messages[key];
}
