import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { SearchItem } from '../search-bar';
import { renderWidget } from '../test-utils';
import { useTableUrlState } from './useTableUrlState';

const items: SearchItem[] = [
  { type: 'text', name: 'keyword' },
  { type: 'select', name: 'state', options: [{ value: 1, label: 'on' }] },
  { type: 'treeSelect', name: 'units', treeData: [], multiple: true },
];

function Harness({ urlKey, defaults }: { urlKey?: string; defaults?: Record<string, string> }) {
  const state = useTableUrlState(items, urlKey, defaults);
  return (
    <>
      <output data-testid="state">
        {JSON.stringify({ filters: state.filters, page: state.page, limit: state.limit })}
      </output>
      <button
        onClick={() => {
          // two writes before the router re-renders
          state.setFilters({ keyword: 'x', units: ['1', '2'] });
          state.setPage(2);
        }}
      >
        both
      </button>
      <button onClick={() => state.setFilters({})}>clear</button>
    </>
  );
}

const shown = () =>
  JSON.parse(screen.getByTestId('state').textContent ?? '{}') as {
    filters: Record<string, unknown>;
    page: number;
    limit: number;
  };

describe('useTableUrlState', () => {
  it('keeps both of two quick writes, lists as repeated parameters', async () => {
    const view = await renderWidget(<Harness />, { url: '/?page=3&other=keep' });
    fireEvent.click(screen.getByText('both'));
    expect(view.url().get('keyword')).toBe('x');
    expect(view.url().getAll('units')).toEqual(['1', '2']);
    expect(view.url().get('page')).toBe('2');
    expect(view.url().get('other')).toBe('keep');
    expect(shown()).toEqual({ filters: { keyword: 'x', units: ['1', '2'] }, page: 2, limit: 20 });
  });

  it('ignores page sizes outside the allowed list', async () => {
    await renderWidget(<Harness />, { url: '/?limit=7&page=-4' });
    expect(shown()).toMatchObject({ page: 1, limit: 20 });
  });

  it('applies defaults until the user clears them, and remembers the clearing in the URL', async () => {
    const view = await renderWidget(<Harness urlKey="t" defaults={{ state: '1' }} />);
    expect(shown().filters).toEqual({ state: '1' });
    fireEvent.click(screen.getByText('clear'));
    expect(view.url().has('t.state')).toBe(true);
    expect(view.url().get('t.state')).toBe('');
    expect(shown().filters).toEqual({});
  });
});
