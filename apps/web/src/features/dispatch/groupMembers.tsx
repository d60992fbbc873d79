import { LoginOutlined, LogoutOutlined, UserAddOutlined, UserDeleteOutlined } from '@ant-design/icons';
import type { AttachInfo, ConsoleNoticeCode, TreeNode } from '@bwc/protocol';
import { App, Button, Popconfirm, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { GroupMemberPicker } from '../../components/group-member-picker';
import { loadDeviceLevel } from '../../components/unit-tree';
import type { RealtimeSdk } from '../../realtime/sdk/RealtimeSdk';

/** What the group tab asks of the console-service connection. */
export type GroupTabSdk = Pick<RealtimeSdk, 'on' | 'request' | 'login'>;

/** Notices after which the members' attachments are read again. */
const ATTACH_NOTICES: ConsoleNoticeCode[] = ['notice_enter_group', 'notice_leave_group', 'notice_group_attach_info'];

/**
 * Which group each of `uids` is attached to (req_group_attach_info), read again on every enter,
 * leave and attachment notice; empty while the console is not logged onto the console service.
 */
export function useAttachments(sdk: GroupTabSdk, uids: readonly number[]): Map<number, AttachInfo> {
  const [attach, setAttach] = useState<Map<number, AttachInfo>>(new Map());
  const key = uids.join(',');
  useEffect(() => {
    if (!sdk.login || !key) return;
    let live = true;
    const list = key.split(',').map(Number);
    const read = () =>
      sdk
        .request('req_group_attach_info', { uids: list, extuids: [] })
        .then((answer) => {
          if (live) setAttach(new Map(answer.attach.map((a) => [a.uid, a])));
        })
        // not connected or not allowed: no attachment shown
        .catch(() => undefined);
    read();
    const offs = ATTACH_NOTICES.map((code) => sdk.on(code, () => void read()));
    return () => {
      live = false;
      offs.forEach((off) => off());
    };
  }, [sdk, key]);
  return attach;
}

/** A member's attachment to group `tgid`: in it (speak and hear), listening only, or nothing. */
export function AttachTag({ info, tgid }: { info: AttachInfo | undefined; tgid: number }) {
  const { t } = useTranslation('dispatch');
  if (!info || info.tgid !== tgid) return null;
  const listening = info.hear === 1 && info.speak === 0;
  return (
    <Tag
      bordered={false}
      color={listening ? 'gold' : 'cyan'}
      data-testid="member-attach"
      data-attach={listening ? 'hear' : 'speak'}
    >
      {listening ? t('groupTab.listening') : t('groupTab.inGroup')}
    </Tag>
  );
}

/** A console's actions on one member: pull into the group, push out of it, remove from it. */
export function MemberActions({
  sdk,
  tgid,
  uid,
  attached,
}: {
  sdk: GroupTabSdk;
  tgid: number;
  uid: number;
  attached: boolean;
}) {
  const { t } = useTranslation('dispatch');
  const { message } = App.useApp();
  const run = (code: 'req_force_enter_group' | 'req_force_leave_group' | 'req_rem_grp_mem') =>
    sdk.request(code, { tgid, uids: [uid], extuids: [] }).catch(() => message.error(t('groupTab.actionFailed')));
  const stop = (event: React.MouseEvent) => event.stopPropagation();
  return (
    <span className="bwc-group-member-actions" onClick={stop}>
      {attached ? (
        <Button
          size="small"
          type="text"
          icon={<LogoutOutlined />}
          title={t('groupTab.forceLeave')}
          aria-label={t('groupTab.forceLeave')}
          data-testid="member-force-leave"
          onClick={() => void run('req_force_leave_group')}
        />
      ) : (
        <Button
          size="small"
          type="text"
          icon={<LoginOutlined />}
          title={t('groupTab.forceEnter')}
          aria-label={t('groupTab.forceEnter')}
          data-testid="member-force-enter"
          onClick={() => void run('req_force_enter_group')}
        />
      )}
      <Popconfirm title={t('groupTab.removeConfirm')} onConfirm={() => void run('req_rem_grp_mem')}>
        <Button
          size="small"
          type="text"
          danger
          icon={<UserDeleteOutlined />}
          title={t('groupTab.remove')}
          aria-label={t('groupTab.remove')}
          data-testid="member-remove"
        />
      </Popconfirm>
    </span>
  );
}

/** The add-members button of a group and its member picker (req_add_grp_mem). */
export function AddMembers({ sdk, tgid, name }: { sdk: GroupTabSdk; tgid: number; name: string }) {
  const { t } = useTranslation('dispatch');
  const { message } = App.useApp();
  const [open, setOpen] = useState(false);
  const add = async (nodes: TreeNode[]) => {
    const uids = nodes.map((n) => Number(n.id)).filter((id) => Number.isInteger(id) && id > 0);
    if (!uids.length) return setOpen(false);
    try {
      await sdk.request('req_add_grp_mem', { tgid, uids, extuids: [] });
      setOpen(false);
    } catch {
      message.error(t('groupTab.actionFailed'));
    }
  };
  return (
    <>
      <Button
        size="small"
        type="text"
        icon={<UserAddOutlined />}
        title={t('groupTab.addMembers')}
        aria-label={t('groupTab.addMembers')}
        data-testid="group-add-members"
        onClick={(event) => {
          event.stopPropagation();
          setOpen(true);
        }}
      />
      {open && (
        <GroupMemberPicker
          open
          title={t('groupTab.addTitle', { name })}
          loader={loadDeviceLevel}
          disabledNode={(node) => !node.jq_hostcode}
          offlinePickable
          okText={t('groupTab.addDone')}
          onSend={add}
          onCancel={() => setOpen(false)}
        />
      )}
    </>
  );
}
