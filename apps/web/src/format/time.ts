import dayjs from 'dayjs';
// the types file only: the search bar's index would bring its date pickers into the shell
import { DATE_TIME_FORMAT } from '../components/search-bar/search-bar.types';

/** The server's ISO instants, shown in local time as the console shows every date-time; '—' when absent. */
export function formatTime(value: string | null | undefined): string {
  if (!value) return '—';
  const time = dayjs(value);
  return time.isValid() ? time.format(DATE_TIME_FORMAT) : value;
}
