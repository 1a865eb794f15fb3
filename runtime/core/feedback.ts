// Where the request layer shows messages and confirm boxes. The signed-in frame (shell/AppFrame) swaps in
// App.useApp()'s instances so they follow the theme. Until then (the login page) antd's static message and
// Modal are loaded on first use, so the first page a visitor loads does not carry them.
import type { MessageInstance } from 'antd/es/message/interface';
import type { ModalFuncProps } from 'antd';

export interface Feedback {
  message: Pick<MessageInstance, 'error' | 'success' | 'warning' | 'info' | 'loading'>;
  modal: { confirm(props: ModalFuncProps): unknown };
}

type Level = keyof Feedback['message'];
const loadStatic = () => Promise.all([import('antd/es/message'), import('antd/es/modal')]).then(([m, d]) => ({ message: m.default, modal: d.default }));
/** Shows the message once antd is loaded; answers a function that closes it (as antd's own does). */
const later =
  (level: Level) =>
  (...args: Parameters<Feedback['message']['error']>) => {
    let close: (() => void) | undefined;
    let closed = false;
    void loadStatic().then((s) => {
      if (!closed) close = s.message[level](...args);
    });
    return () => {
      closed = true;
      close?.();
    };
  };
const lazyMessage = Object.fromEntries((['error', 'success', 'warning', 'info', 'loading'] as Level[]).map((l) => [l, later(l)])) as unknown as Feedback['message'];

const current: Feedback = {
  message: lazyMessage,
  modal: { confirm: (props) => void loadStatic().then((s) => s.modal.confirm(props)) },
};

export function setFeedback(next: Partial<Feedback>): void {
  Object.assign(current, next);
}

export function getFeedback(): Feedback {
  return current;
}
