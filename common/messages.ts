// The spec's Chinese messages (schemas/messages/zh-CN.json), filled the one way (template.ts). The server reads the
// catalogue from its loaded schemas and imports template.ts alone.
import file from '../schemas/messages/zh-CN.json';
import { fillMessage } from './template';

export { fillMessage } from './template';

export type MessageKey = keyof typeof file.messages;
export const messages: Readonly<Record<MessageKey, string>> = file.messages;

/** A message of the catalogue with its placeholders filled. */
export function message(key: MessageKey, vars: Record<string, string | number> = {}): string {
  return fillMessage(messages[key], vars);
}
