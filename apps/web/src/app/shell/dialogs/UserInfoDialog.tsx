import { Descriptions, Modal, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { useUserInfo } from '../../session/queries';

/** User info: username, hostname, group name, unit name. */
export function UserInfoDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('shell');
  const { t: tc } = useTranslation();
  const { data, isPending } = useUserInfo();
  return (
    <Modal open={open} title={t('userInfo.title')} onCancel={onClose} footer={null}>
      {isPending ? (
        <Spin />
      ) : (
        <Descriptions column={1} bordered size="middle" data-testid="user-info">
          <Descriptions.Item label={t('userInfo.username')}>{data?.username || tc('empty')}</Descriptions.Item>
          <Descriptions.Item label={t('userInfo.hostname')}>{data?.hostname || tc('empty')}</Descriptions.Item>
          <Descriptions.Item label={t('userInfo.groupName')}>{data?.group_name || tc('empty')}</Descriptions.Item>
          <Descriptions.Item label={t('userInfo.unitName')}>{data?.dname || tc('empty')}</Descriptions.Item>
        </Descriptions>
      )}
    </Modal>
  );
}
