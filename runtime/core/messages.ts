// The spec's Chinese texts, from schemas/messages/zh-CN.json, with {name} placeholders filled.
import file from '../../schemas/messages/zh-CN.json';

export type MessageKey = keyof typeof file.messages;
export const messages = file.messages;

export function t(key: MessageKey, vars: Record<string, string | number> = {}): string {
  return messages[key].replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m));
}
