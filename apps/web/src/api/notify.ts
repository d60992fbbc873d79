import { TOAST_DURATION_MS } from '@bwc/protocol';
import { message } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';

/**
 * Toasts of the http layer and the session. The `<NotifyBridge>` in the app providers hands over
 * antd's context-aware instance (theme, locale); before that the static API is used.
 */
let instance: MessageInstance = message;

export function setMessageInstance(next: MessageInstance): void {
  instance = next;
}

const seconds = TOAST_DURATION_MS / 1000;

export const notify = {
  success(text: string): void {
    void instance.success(text, seconds);
  },
  error(text: string, key?: string): void {
    void instance.open({ type: 'error', content: text, duration: seconds, ...(key ? { key } : {}) });
  },
  warning(text: string, key?: string): void {
    void instance.open({ type: 'warning', content: text, duration: seconds, ...(key ? { key } : {}) });
  },
};
