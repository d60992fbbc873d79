import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWidget } from '../test-utils';
import { AddressLocation, cachedAddress, type AddressResolver } from './AddressLocation';

describe('AddressLocation', () => {
  it('shows only the position while the map switch is off', async () => {
    const resolve = vi.fn<AddressResolver>();
    await renderWidget(<AddressLocation lng={116.4} lat={39.9} mapOn={false} resolve={resolve} />);
    expect(screen.getByText('经度 116.4，纬度 39.9')).toBeTruthy();
    expect(screen.queryByText('点击获取地址')).toBeNull();
  });

  it('says so when there is no position', async () => {
    await renderWidget(<AddressLocation lng="" lat={null} mapOn resolve={vi.fn<AddressResolver>()} />, { language: 'en-US' });
    expect(screen.getByText('No position')).toBeTruthy();
  });

  it('resolves the address on click and caches it by position', async () => {
    const resolve = vi.fn<AddressResolver>(async (lat, lng) => `addr ${lat}/${lng}`);
    const first = await renderWidget(<AddressLocation lng="121.5" lat="31.2" mapOn resolve={resolve} />);
    fireEvent.click(screen.getByText('点击获取地址'));
    expect(await screen.findByText('addr 31.2/121.5')).toBeTruthy();
    expect(resolve).toHaveBeenCalledWith(31.2, 121.5);
    expect(cachedAddress(31.2, 121.5)).toEqual({ lat: 31.2, lng: 121.5, address: 'addr 31.2/121.5' });
    first.unmount();
    // another record at the same place shows the cached address without asking again
    await renderWidget(<AddressLocation lng={121.5} lat={31.2} mapOn resolve={resolve} />);
    expect(screen.getByText('addr 31.2/121.5')).toBeTruthy();
    expect(resolve).toHaveBeenCalledOnce();
  });

  it('offers a retry when the maps service fails', async () => {
    const resolve = vi.fn<AddressResolver>().mockRejectedValueOnce(new Error('down')).mockResolvedValueOnce('Main street 1');
    await renderWidget(<AddressLocation lng={10} lat={20} mapOn resolve={resolve} />);
    fireEvent.click(screen.getByText('点击获取地址'));
    fireEvent.click(await screen.findByText('获取地址失败，点击重试'));
    await waitFor(() => expect(screen.getByText('Main street 1')).toBeTruthy());
    expect(resolve).toHaveBeenCalledTimes(2);
  });
});
