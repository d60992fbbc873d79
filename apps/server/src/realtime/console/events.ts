import type { ConsoleNoticeCode, ConsoleNoticeOf, UserType } from '@bwc/protocol';
import type { ConsoleImRow } from './console.tables';

/**
 * Who a console-service notice is for. A node delivers it to its own connections whose login
 * matches; with several nodes the same event reaches every node through the bus.
 */
export interface NoticeTarget {
  /** the logins of these uids */
  uids?: readonly number[];
  /** consoles whose scope holds one of these units (administrators: every unit) */
  seeing?: readonly number[];
  /** every logged-on console */
  consoles?: true;
  /** never this login id (the sender, who has its answer) */
  exceptLogin?: number;
}

export interface ConsoleNoticeEvent<N extends ConsoleNoticeCode = ConsoleNoticeCode> {
  to: NoticeTarget;
  msg_code: N;
  payload: ConsoleNoticeOf<N>;
  /** cmd_status of the notice when it is not 0 (notice_logon 2, notice_error 52001) */
  cmd_status?: number;
  error_reason?: string;
}

declare module '../../bus' {
  interface DomainEvents {
    /** a notice of the console service to deliver (realtime/console) */
    'console.notice': ConsoleNoticeEvent;
    /** a console-service login came (state 7) or went (state 0) */
    'console.presence': {
      uid: number;
      ext_id: string;
      user_type: UserType;
      unit_id: number;
      state: number;
      time: number;
      /** the node whose connection took or left the login (absent: one node) */
      node?: string;
    };
    /** an instant message was stored: each node delivers it to its connections of the recipients */
    'console.im': { message: ConsoleImRow; recipients: number[] };
    /**
     * a login ended by the service (taken over by a second logon, its session or device gone):
     * the node holding its connection sends the notice and closes it
     */
    'console.login.ended': {
      login_id: number;
      uid: number;
      reason: 'taken_over' | 'invalid' | 'logout';
      /** catalogue key of the reason (console.reason.*) for invalidated logins */
      reasonKey?: string;
    };
  }
}
