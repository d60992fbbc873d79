import { LoginRequest, verifySignature } from '@bwc/protocol';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../api/queryClient';
import { readLoggedIn } from '../../api/session';
import { setLanguage } from '../../i18n';
import { LoginPage } from './LoginPage';

type Answer = { code: number; msg: string; data: unknown };
let answers: Record<string, Answer | (() => Answer)>;
let loginBodies: unknown[];

function respond(url: string, init?: RequestInit): Response {
  const path = url.split('?')[0]!;
  if (path === '/rest/index/login/login') loginBodies.push(JSON.parse(String(init?.body)));
  const entry = answers[path] ?? { code: 200, msg: '', data: null };
  const body = typeof entry === 'function' ? entry() : entry;
  return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
}

function renderLogin() {
  const router = createMemoryRouter(
    [
      { path: '/login', element: <LoginPage /> },
      { path: '/menu', element: <p>home page</p> },
    ],
    { initialEntries: ['/login'] },
  );
  render(
    <AntApp>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </AntApp>,
  );
  return router;
}

async function fill(label: string, value: string) {
  await act(async () => {
    fireEvent.change(screen.getByLabelText(label), { target: { value } });
  });
}

describe('login screen', () => {
  beforeEach(async () => {
    await setLanguage('en-US');
    queryClient.clear();
    loginBodies = [];
    answers = {
      '/rest/index/login/get': {
        code: 200,
        msg: '',
        data: { token: 'captcha-token', captcha: 'data:image/svg+xml;base64,PHN2Zy8+', registered: true },
      },
      '/rest/index/index/get': {
        code: 200,
        msg: '',
        data: { title: 'T', logo_path: '', background_path: '', version: '9.9.9', support_text: 'support line' },
      },
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => respond(url, init)),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  it('shows the system title, the captcha and the footer with support text and version', async () => {
    renderLogin();
    expect(await screen.findByText('Software version: 9.9.9')).toBeTruthy();
    // the title set under System -> system title, as the navigation bar shows it
    expect(screen.getByTestId('login-title').textContent).toBe('T');
    expect(await screen.findByAltText('Verification code')).toBeTruthy();
    expect(screen.getByText('Technical support: support line')).toBeTruthy();
  });

  it.each(['', '移动执法电子证据管理'])(
    'shows the product name in the console language while the title is %j (none, or the shipped default)',
    async (title) => {
      answers['/rest/index/index/get'] = {
        code: 200,
        msg: '',
        data: { title, logo_path: '', background_path: '', version: '9.9.9', support_text: '' },
      };
      renderLogin();
      expect(await screen.findByText('Software version: 9.9.9')).toBeTruthy();
      expect(screen.getByTestId('login-title').textContent).toBe(
        'Mobile law enforcement electronic evidence management software',
      );
    },
  );

  it('checks the fields, then sends a signed LoginRequest and enters the console', async () => {
    answers['/rest/index/login/login'] = {
      code: 200,
      msg: 'Logged in',
      data: { token: 't', username: 'admin', ifadmin: 1 },
    };
    const router = renderLogin();
    await screen.findByAltText('Verification code');
    await fill('Password', '12345');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    });
    expect(await screen.findByText('Please enter the username.')).toBeTruthy();
    expect(screen.getByText('The password has at least 6 characters.')).toBeTruthy();
    expect(screen.getByText('Please enter the verification code.')).toBeTruthy();
    expect(loginBodies).toHaveLength(0);

    await fill('Username', 'admin');
    await fill('Password', 'Admin@123');
    await act(async () => {
      fireEvent.change(document.querySelector('#captcha_code')!, { target: { value: 'ab12' } });
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/menu'));
    const body = loginBodies[0] as Record<string, unknown>;
    expect(LoginRequest.safeParse(body).success).toBe(true);
    expect(verifySignature(body)).toBe(true);
    expect(body).toMatchObject({ token: 'captcha-token', captcha_code: 'ab12' });
    expect(readLoggedIn()).toEqual({ username: 'admin', ifadmin: 1 });
  });

  it('reports a throttled address as such, not as a locked account', async () => {
    answers['/rest/index/login/login'] = {
      code: 429,
      msg: 'Too many failed logins from this address: try again in 4 s (no account is locked)',
      data: null,
    };
    renderLogin();
    await screen.findByAltText('Verification code');
    await fill('Username', 'admin');
    await fill('Password', 'Admin@123');
    await act(async () => {
      fireEvent.change(document.querySelector('#captcha_code')!, { target: { value: 'ab12' } });
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    });
    const alert = await screen.findByTestId('login-error');
    expect(alert.textContent).toContain('Too many attempts from this address');
    expect(alert.textContent).toContain('try again in 4 s (no account is locked)');
    expect(alert.textContent).not.toContain('Account locked');
  });

  it('reports a lockout clearly on the form and fetches a new captcha', async () => {
    answers['/rest/index/login/login'] = {
      code: 423,
      msg: 'too many failed logins: the account is locked, try again in 10 minutes',
      data: null,
    };
    renderLogin();
    await screen.findByAltText('Verification code');
    await fill('Username', 'admin');
    await fill('Password', 'Wrong@123');
    await act(async () => {
      fireEvent.change(document.querySelector('#captcha_code')!, { target: { value: 'ab12' } });
    });
    const captchaCalls = () =>
      vi.mocked(fetch).mock.calls.filter(([u]) => String(u) === '/rest/index/login/get').length;
    const before = captchaCalls();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    });
    const alert = await screen.findByTestId('login-error');
    expect(alert.textContent).toContain('Account locked');
    expect(alert.textContent).toContain('try again in 10 minutes');
    await waitFor(() => expect(captchaCalls()).toBe(before + 1));
    expect(readLoggedIn()).toBeNull();
  });

  it('shows the registration step with the machine code when the installation is not registered', async () => {
    answers['/rest/index/login/get'] = {
      code: 200,
      msg: '',
      data: { token: 'x', captcha: 'data:,', registered: false },
    };
    answers['/rest/index/unregistered/get'] = {
      code: 200,
      msg: '',
      data: { registered: false, mac_code: 'AAAA-BBBB', valid_days: 0 },
    };
    renderLogin();
    expect(await screen.findByTestId('registration-step')).toBeTruthy();
    expect((await screen.findByTestId('mac-code')).textContent).toContain('AAAA-BBBB');
    expect(screen.queryByRole('button', { name: 'Log in' })).toBeNull();
  });
});
