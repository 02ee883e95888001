// SPDX-License-Identifier: GPL-3.0-or-later
// "Inspector": everything about the selected socket at this step — identity, references,
// what the collector thinks of it, its receive queue skb by skb, and where copies of its own
// file are in flight. Values that changed since the previous step are highlighted; every
// field explains itself in a tooltip.
#pragma once

#include <QColor>
#include <QDockWidget>
#include <QHash>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <vector>

class QLabel;
class QLineEdit;
class QTreeWidget;
class QTreeWidgetItem;
class PlayerController;
namespace inflight {
struct SocketDetail;
}

namespace docks {

class InspectorDock : public QDockWidget {
    Q_OBJECT
public:
    explicit InspectorDock(PlayerController &controller, QWidget *parent = nullptr);

    QTreeWidget *tree() const { return tree_; }
    // For tests: the item of a field by key ("file_refs", "inflight", "queue", "queue/0", ...).
    QTreeWidgetItem *field(const QString &key) const;
    QString value(const QString &key) const;
    // Run ▸ On this kernel: the kernel's verdict per socket label ("freed (model: freed)"),
    // shown as the "on this kernel" field; an empty map removes it.
    void setKernelVerdicts(const QHash<QString, QString> &by_label, const QString &kernel);

    struct Field {
        QString key, name, value, tip;
        QColor swatch;
        std::vector<Field> children;
    };

private:
    void refresh();
    void applyTheme();
    std::vector<Field> build(const inflight::SocketDetail &d) const;
    Field whyField(const inflight::SocketDetail &d) const;
    void addItems(QTreeWidgetItem *parent, const std::vector<Field> &fields, const QString &prefix);
    void updateItems(const std::vector<Field> &fields, const QString &prefix, bool top);
    void fill(QTreeWidgetItem *item, const Field &f, const QString &key, bool top);

    PlayerController &controller_;
    QLineEdit *search_ = nullptr;
    QLabel *header_ = nullptr;
    QLabel *why_ = nullptr;    // the "why is it alive?" answer in full, wrapped
    mutable QString why_text_; // set by whyField() while build() runs
    QTreeWidget *tree_ = nullptr;
    QHash<QString, QTreeWidgetItem *> items_;
    QStringList keys_;                   // the fields shown, in order
    QHash<QString, QString> baseline_;   // key -> value at the position shown before
    QHash<QString, QString> current_;    // key -> value at shown_pos_
    QHash<QString, bool> collapsed_;     // sections the user collapsed
    std::optional<std::uint32_t> shown_; // the socket those values are about
    std::uint64_t shown_pos_ = 0;
    QHash<QString, QString> kernel_verdicts_;
    QString kernel_name_;
};

} // namespace docks
