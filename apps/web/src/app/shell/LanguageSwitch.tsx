import { GlobalOutlined } from '@ant-design/icons';
import { LANGUAGES, type Language } from '@bwc/protocol';
import { Button, Dropdown, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { currentLanguage, setLanguage } from '../../i18n';
import { keysOf } from '../../i18n/keys';

const LANGUAGE_LABELS = keysOf('common', { 'zh-CN': 'language.zh-CN', 'en-US': 'language.en-US' } satisfies Record<
  Language,
  string
>);

/** Language switch of the navigation bar and the login screen; the choice is remembered. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const items: MenuProps['items'] = LANGUAGES.map((lang) => ({ key: lang, label: t(LANGUAGE_LABELS[lang]) }));
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
        {t(LANGUAGE_LABELS[currentLanguage()])}
      </Button>
    </Dropdown>
  );
}
