// SPDX-License-Identifier: GPL-3.0-or-later
#include "help_dialogs.h"
#include "presenter_keys.h"

#include "inflight/glossary.hpp"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFile>
#include <QHeaderView>
#include <QTableWidget>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <QWidget>

#include <algorithm>

namespace help {

namespace {

QDialog *makeDialog(QWidget *parent, const QString &title, const QString &object_name)
{
    // One of each: asking again brings the open one forward.
    if (auto *open = parent->findChild<QDialog *>(object_name)) {
        open->raise();
        open->activateWindow();
        return nullptr;
    }
    auto *d = new QDialog(parent);
    d->setObjectName(object_name);
    d->setAttribute(Qt::WA_DeleteOnClose);
    d->setWindowTitle(title);
    auto *layout = new QVBoxLayout(d);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, d);
    QObject::connect(buttons, &QDialogButtonBox::rejected, d, &QDialog::close);
    layout->addWidget(buttons);
    return d;
}

// Puts `content` above the Close button and shows the dialog at `size`.
void showWith(QDialog *d, QWidget *content, QSize size)
{
    static_cast<QVBoxLayout *>(d->layout())->insertWidget(0, content, 1);
    d->resize(size);
    d->show();
}

} // namespace

void showSceneLanguage(QWidget *parent)
{
    QDialog *d = makeDialog(parent, QObject::tr("Scene language — Inflight"), QStringLiteral("sceneLanguageHelp"));
    if (!d)
        return;
    auto *browser = new QTextBrowser(d);
    browser->setObjectName(QStringLiteral("sceneLanguageText"));
    browser->setOpenExternalLinks(true);
    QFile f(QStringLiteral(":/LANGUAGE.md"));
    browser->setMarkdown(f.open(QIODevice::ReadOnly)
                             ? QString::fromUtf8(f.readAll())
                             : QObject::tr("The language reference is missing from this build."));
    showWith(d, browser, QSize(parent->width() * 2 / 3, parent->height() * 4 / 5));
}

void showGlossary(QWidget *parent)
{
    QDialog *d = makeDialog(parent, QObject::tr("Glossary — Inflight"), QStringLiteral("glossaryHelp"));
    if (!d)
        return;
    auto *browser = new QTextBrowser(d);
    browser->setObjectName(QStringLiteral("glossaryText"));
    QString html;
    for (const inflight::GlossaryEntry &e : inflight::glossary())
        html += QStringLiteral("<h3>%1</h3><p>%2</p>")
                    .arg(QString::fromUtf8(e.term.data(), static_cast<qsizetype>(e.term.size())).toHtmlEscaped(),
                         QString::fromUtf8(e.meaning.data(), static_cast<qsizetype>(e.meaning.size())).toHtmlEscaped());
    browser->setHtml(html);
    showWith(d, browser, QSize(parent->width() / 2, parent->height() * 4 / 5));
}

void showKeyboardShortcuts(QWidget *parent)
{
    QDialog *d = makeDialog(parent, QObject::tr("Keyboard shortcuts — Inflight"), QStringLiteral("shortcutsHelp"));
    if (!d)
        return;
    QList<QAction *> actions;
    for (QAction *a : parent->actions())
        if (!a->shortcuts().isEmpty())
            actions << a;
    // Presentation mode's keys are no actions: they replace some of the window's while it lasts.
    const QList<QPair<QString, QString>> presenting = PresenterKeys::help();
    auto *table = new QTableWidget(static_cast<int>(actions.size() + presenting.size()), 2, d);
    table->setObjectName(QStringLiteral("shortcutsTable"));
    table->setHorizontalHeaderLabels({QObject::tr("Action"), QObject::tr("Keys")});
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    for (int row = 0; row < actions.size(); ++row) {
        QAction *a = actions[row];
        QStringList keys;
        for (const QKeySequence &k : a->shortcuts())
            keys << k.toString(QKeySequence::NativeText);
        table->setItem(row, 0, new QTableWidgetItem(a->text().remove(QLatin1Char('&'))));
        table->setItem(row, 1, new QTableWidgetItem(keys.join(QStringLiteral(", "))));
    }
    for (int i = 0; i < presenting.size(); ++i) {
        const int row = static_cast<int>(actions.size()) + i;
        table->setItem(row, 0, new QTableWidgetItem(presenting[i].first));
        table->setItem(row, 1, new QTableWidgetItem(presenting[i].second));
    }
    table->resizeColumnsToContents();
    table->horizontalHeader()->setStretchLastSection(true);
    showWith(d, table, QSize(std::max(520, parent->width() / 3), parent->height() * 3 / 4));
}

} // namespace help
