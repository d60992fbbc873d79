import { MenuId, type UserContext } from '@bwc/protocol';
import { act, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { sessionKeys } from '../../../../app/session/queries';
import { renderWidget } from '../../../../components/test-utils';
import { dispatchPages } from '../../../dispatch/routes';

// the two pages stand in for themselves: which one the emergency route shows is the question
vi.mock('../../../dispatch/EmergencyPage', () => ({ EmergencyPage: () => <p>body-camera map</p> }));
vi.mock('./GbMapPage', () => ({ GbMapPage: () => <p>GB map</p> }));

describe('the emergency route', () => {
  it('shows the GB map in GB mode and the body-camera map otherwise, and follows the flag', async () => {
    const { queryClient } = await renderWidget(<>{dispatchPages[MenuId.EMERGENCY]}</>, {
      permissions: { [MenuId.EMERGENCY]: { view: 1 } },
    });
    expect(await screen.findByText('body-camera map')).toBeTruthy();
    expect(screen.queryByText('GB map')).toBeNull();
    act(() => queryClient.setQueryData<UserContext>(sessionKeys.userContext, (c) => (c ? { ...c, gb: 1 } : c)));
    expect(await screen.findByText('GB map')).toBeTruthy();
    expect(screen.queryByText('body-camera map')).toBeNull();
  });
});
