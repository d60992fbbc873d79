import { Button, Space, Typography } from 'antd';
import type { DataTableColumn } from '../../components/data-table';

/**
 * The archive tables' linked-media column: how many items are linked, and the button that lists
 * them (one column: two took the width the title and place columns need).
 */
export function linkedMediaColumn<T extends { media_count: number }>(
  labels: { title: string; button: string },
  open: (row: T) => void,
): DataTableColumn<T> {
  return {
    title: labels.title,
    key: 'media',
    width: 130,
    render: (_value: unknown, row: T) => (
      <Space size={4}>
        <Typography.Text type={row.media_count ? undefined : 'secondary'}>{row.media_count}</Typography.Text>
        <Button type="link" size="small" onClick={() => open(row)}>
          {labels.button}
        </Button>
      </Space>
    ),
  };
}
