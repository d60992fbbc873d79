import { ChangePasswordDialog } from './ChangePasswordDialog';
import { LocalSaveDialog } from './LocalSaveDialog';
import { UserInfoDialog } from './UserInfoDialog';
import { VersionDialog } from './VersionDialog';

export type ShellDialog = 'version' | 'localSave' | 'userInfo' | 'password';

/**
 * The dialogs of the navigation bar's menus, one chunk loaded when the first of them opens: their
 * forms and selects stay out of the shell's first load (the first-load budget, bench/bundle-size.ts).
 */
export function ShellDialogs({ dialog, onClose }: { dialog: ShellDialog | null; onClose: () => void }) {
  return (
    <>
      <VersionDialog open={dialog === 'version'} onClose={onClose} />
      <LocalSaveDialog open={dialog === 'localSave'} onClose={onClose} />
      <UserInfoDialog open={dialog === 'userInfo'} onClose={onClose} />
      <ChangePasswordDialog open={dialog === 'password'} onClose={onClose} />
    </>
  );
}
