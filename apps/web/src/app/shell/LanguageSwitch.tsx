import { GlobalOutlined } from '@ant-design/icons';
import { LANGUAGES, type Language } from '@bwc/protocol';
import { Button, Dropdown, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { setLanguage } from '../../i18n';

/** Language switch of the navigation bar and the login screen; the choice is remembered. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const items: MenuProps['items'] = LANGUAGES.map((lang) => ({ key: lang, label: t(`language.${lang}`) }));
  return (
    <Dropdown
      menu={{
        items,
        selectable: true,
        selectedKeys: [i18n.language],
        onClick: ({ key }) => void setLanguage(key as Language),
      }}
    >
      <Button type="text" icon={<GlobalOutlined />} data-testid="language-switch">
        {t(`language.${i18n.language}`)}
      </Button>
    </Dropdown>
  );
}
