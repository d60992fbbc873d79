import dayjs from 'dayjs';
import { DATE_TIME_FORMAT } from '../components/search-bar';

/** The server's ISO instants, shown in local time as the console shows every date-time; '—' when absent. */
export function formatTime(value: string | null | undefined): string {
  if (!value) return '—';
  const time = dayjs(value);
  return time.isValid() ? time.format(DATE_TIME_FORMAT) : value;
}
