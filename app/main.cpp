// SPDX-License-Identifier: GPL-3.0-or-later
// inflight [scene.scn] [--gc classic|async|graph] [--step N] [--edit LINE:TEXT] [--screenshot FILE] [--size WxH]
//          [--export-graph FILE.png|FILE.svg] [--variant NAME] [--side-by-side A,B] [--presentation]
//          [--theme light|dark] [--export-handout FILE.pdf [--handout-pages note|beat]]
//          [--export-lesson FILE.html]
// inflight --check-lesson SCENE [--size WxH] [--gc …] [--kernel …] [--variant NAME] [--theme light|dark]
#include "editor/editor_session.h"
#include "editor/scene_editor.h"
#include "graph/graph_panel.h"
#include "lesson/handout.h"
#include "lesson/web_page.h"
#include "lesson_check.h"
#include "main_window.h"
#include "player_controller.h"
#include "settings/checked_settings.h"

#include "inflight/process_heap.hpp"
#include "inflight/version.hpp"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QIcon>
#include <QMessageBox>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <cstring>

int main(int argc, char **argv)
{
    inflight::configure_process_heap(argc, argv); // before anything else: it may start the process again
    // An export needs no display: it draws off screen unless a platform was asked for.
    for (int i = 1; i < argc; ++i)
        if (std::strncmp(argv[i], "--export-graph", 14) == 0 && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
    const auto projector = lesson_check::prepareOffscreenProjector(argc, argv);
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Inflight"));
    QApplication::setOrganizationName(QStringLiteral("Inflight"));
    QApplication::setApplicationVersion(QString::fromLatin1(inflight::kVersion));
    // Wayland compositors and docks match the window to the installed .desktop file by this id.
    QGuiApplication::setDesktopFileName(QStringLiteral("io.github.inflight.Inflight"));
    // Before anything reads a setting: a settings file that would wedge or flood start-up is
    // renamed aside, said on stderr now and in a box once the window is up.
    const QStringList settings_refused = setAsideUnreadableSettingsFiles();
    for (const QString &message : settings_refused)
        std::fprintf(stderr, "inflight: %s\n", qPrintable(message));
    // The themed icon when installed; the built-in PNGs from a build-tree run.
    QIcon builtin;
    for (int size : {16, 32, 48, 64, 128, 256})
        builtin.addFile(QStringLiteral(":/icons/inflight-%1.png").arg(size), QSize(size, size));
    QApplication::setWindowIcon(QIcon::fromTheme(QStringLiteral("io.github.inflight.Inflight"), builtin));

    QCommandLineParser cli;
    cli.setApplicationDescription(
        QStringLiteral("Watch and step through the Linux AF_UNIX garbage collector of three kernel eras."));
    cli.addHelpOption();
    cli.addVersionOption();
    cli.addPositionalArgument(QStringLiteral("scene"),
                              QStringLiteral("A scene file (.scn); default: the welcome scene."));
    QCommandLineOption gc_opt(QStringLiteral("gc"), QStringLiteral("Collector: classic, async or graph."),
                              QStringLiteral("era"));
    QCommandLineOption kernel_opt(
        QStringLiteral("kernel"),
        QStringLiteral("Run on a kernel profile, e.g. 6.1 (inflight-cli kernels lists them)."),
        QStringLiteral("VERSION"));
    QCommandLineOption step_opt(QStringLiteral("step"), QStringLiteral("Open at micro-step N."), QStringLiteral("N"));
    QCommandLineOption shot_opt(QStringLiteral("screenshot"),
                                QStringLiteral("Save a PNG of the window to FILE and exit."), QStringLiteral("FILE"));
    QCommandLineOption size_opt(QStringLiteral("size"),
                                QStringLiteral("Window size for --screenshot and --export-graph (default 1920x1080), "
                                               "the projector's for --check-lesson (default 1280x800)."),
                                QStringLiteral("WxH"), QStringLiteral("1920x1080"));
    QCommandLineOption present_opt(QStringLiteral("presentation"), QStringLiteral("Start in presentation mode."));
    // For screenshots of live editing: the run as opened (and stepped), then an edit over it.
    QCommandLineOption edit_opt(
        QStringLiteral("edit"),
        QStringLiteral("Replace line LINE of the scene with TEXT in the editor, as typed, after "
                       "the run is shown (e.g. 6:'sned c2 fds=a')."),
        QStringLiteral("LINE:TEXT"));
    QCommandLineOption export_opt(QStringLiteral("export-graph"),
                                  QStringLiteral("Save the graph at the step as a slide picture (FILE.png or "
                                                 "FILE.svg, the export settings' captions) and exit."),
                                  QStringLiteral("FILE"));
    QCommandLineOption variant_opt(QStringLiteral("variant"), QStringLiteral("Run the scene's variant NAME."),
                                   QStringLiteral("NAME"));
    QCommandLineOption check_opt(QStringLiteral("check-lesson"),
                                 QStringLiteral("Walk every beat of SCENE in presentation mode on a projector of "
                                                "--size (offscreen) and print what the back row would miss; exit 1 "
                                                "if anything, 0 if nothing."),
                                 QStringLiteral("SCENE"));
    QCommandLineOption beats_opt(QStringLiteral("beats"),
                                 QStringLiteral("With --check-lesson: walk only beats FROM to TO (FROM- : to the last; "
                                                "N: that one)."),
                                 QStringLiteral("FROM-TO"));
    QCommandLineOption side_opt(QStringLiteral("side-by-side"),
                                QStringLiteral("Show two runs side by side, kept on the same statement and beat: two "
                                               "of the scene's variants or two kernel profiles (e.g. buggy,fixed); "
                                               "--step is the first one's."),
                                QStringLiteral("A,B"));
    QCommandLineOption theme_opt(QStringLiteral("theme"),
                                 QStringLiteral("Presentation mode's colours: light (the default) or dark."),
                                 QStringLiteral("light|dark"));
    QCommandLineOption handout_opt(QStringLiteral("export-handout"),
                                   QStringLiteral("Write the lesson as a PDF handout to FILE and exit."),
                                   QStringLiteral("FILE.pdf"));
    QCommandLineOption handout_pages_opt(QStringLiteral("handout-pages"),
                                         QStringLiteral("The handout's pages: one per note (the default) or per beat."),
                                         QStringLiteral("note|beat"));
    QCommandLineOption lesson_page_opt(
        QStringLiteral("export-lesson"),
        QStringLiteral("Write the lesson as one self-contained web page to FILE and exit."),
        QStringLiteral("FILE.html"));
    cli.addOptions({gc_opt, kernel_opt, step_opt, shot_opt, size_opt, present_opt, edit_opt, export_opt, variant_opt,
                    check_opt, beats_opt, side_opt, theme_opt, handout_opt, handout_pages_opt, lesson_page_opt});
    cli.process(app);

    const QString theme = cli.value(theme_opt);
    if (cli.isSet(theme_opt) && theme != QLatin1String("light") && theme != QLatin1String("dark")) {
        std::fprintf(stderr, "inflight: error: unknown theme '%s' (light or dark)\n", qPrintable(theme));
        return 2;
    }
    PlayerController controller;
    MainWindow window(controller);
    if (cli.isSet(theme_opt))
        window.setDarkPresentation(theme == QLatin1String("dark"));
    const QStringList args = cli.positionalArguments();
    const bool checking = cli.isSet(check_opt);
    const bool headless = cli.isSet(shot_opt) || cli.isSet(export_opt) || cli.isSet(handout_opt) ||
                          cli.isSet(lesson_page_opt) || checking;
    const QString handout_pages = cli.isSet(handout_pages_opt) ? cli.value(handout_pages_opt) : QStringLiteral("note");
    if (handout_pages != QLatin1String("note") && handout_pages != QLatin1String("beat")) {
        std::fprintf(stderr, "inflight: error: bad --handout-pages '%s' (note or beat)\n", qPrintable(handout_pages));
        return 2;
    }
    // Said again once the window is up, where it is seen (a run without a window has stderr).
    if (!headless && !settings_refused.isEmpty())
        QTimer::singleShot(0, &window, [&window, settings_refused] {
            QMessageBox::warning(&window, QStringLiteral("Inflight"), settings_refused.join(QStringLiteral("\n\n")));
        });
    // Unsaved text a crash or a kill left is offered back first (not in a non-interactive
    // screenshot run); taking it opens that buffer instead of the scene asked for.
    if (!headless && window.offerRecovery()) {
        if (window.restoredGeometry())
            window.show();
        else
            window.showMaximized();
        return QApplication::exec();
    }
    bool ok = checking         ? window.openSceneNow(cli.value(check_opt))
              : args.isEmpty() ? window.openWelcome()
                               : window.openSceneNow(args.first());
    if (!ok) {
        // The messages were printed; a missing or broken scene still opens the window on the
        // welcome scene rather than an empty one.
        if (!headless && !args.isEmpty())
            window.openWelcome();
        else if (headless)
            return 2;
    }
    if (cli.isSet(gc_opt)) {
        const auto era = inflight::parse_era(cli.value(gc_opt).toStdString());
        if (!era) {
            std::fprintf(stderr, "inflight: error: unknown collector '%s' (classic, async or graph)\n",
                         qPrintable(cli.value(gc_opt)));
            return 2;
        }
        controller.setEra(*era);
    }
    if (cli.isSet(kernel_opt)) {
        const inflight::KernelProfile *k = inflight::kernel_profile_by_name(cli.value(kernel_opt).toStdString());
        if (!k) {
            std::fprintf(stderr, "inflight: error: unknown kernel '%s' (inflight-cli kernels lists the profiles)\n",
                         qPrintable(cli.value(kernel_opt)));
            return 2;
        }
        controller.setKernel(k);
    }
    if (cli.isSet(variant_opt)) {
        const auto &variants = controller.baseScene().variants;
        const auto it = std::find_if(variants.begin(), variants.end(), [&](const inflight::SceneVariant &v) {
            return QString::fromStdString(v.name) == cli.value(variant_opt);
        });
        if (it == variants.end()) {
            std::fprintf(stderr, "inflight: error: the scene has no variant '%s'\n",
                         qPrintable(cli.value(variant_opt)));
            return 2;
        }
        controller.setVariant(int(it - variants.begin()));
    }
    if (cli.isSet(side_opt)) {
        QString error;
        if (!window.setSideBySide(cli.value(side_opt), &error)) {
            std::fprintf(stderr, "inflight: error: --side-by-side: %s\n", qPrintable(error));
            return 2;
        }
    }
    if (cli.isSet(step_opt)) {
        bool num = false;
        const qulonglong n = cli.value(step_opt).toULongLong(&num);
        if (!num) {
            std::fprintf(stderr, "inflight: error: bad step '%s'\n", qPrintable(cli.value(step_opt)));
            return 2;
        }
        controller.seek(n);
    }
    if (cli.isSet(present_opt))
        window.setPresentationMode(true);
    if (cli.isSet(edit_opt)) {
        const QString spec = cli.value(edit_opt);
        const int colon = static_cast<int>(spec.indexOf(QLatin1Char(':')));
        const int line = colon > 0 ? spec.left(colon).toInt() : 0;
        editor::SceneEditor &ed = window.sceneEditor();
        if (line < 1 || line > ed.lines()) {
            std::fprintf(stderr, "inflight: error: bad --edit '%s' (LINE:TEXT, LINE in the scene)\n", qPrintable(spec));
            return 2;
        }
        const QByteArray text = spec.mid(colon + 1).toUtf8();
        ed.SendScintilla(QsciScintilla::SCI_SETTARGETRANGE, ed.positionOf(line, 1),
                         ed.SendScintilla(QsciScintilla::SCI_GETLINEENDPOSITION, line - 1));
        ed.SendScintilla(QsciScintilla::SCI_REPLACETARGET, text.size(), text.constData());
        // The edit's check (after the typing pause) decides what is shown: wait for it.
        QEventLoop loop;
        QObject::connect(&window.session(), &editor::EditorSession::checked, &loop, &QEventLoop::quit);
        QTimer::singleShot(10000, &loop, &QEventLoop::quit);
        loop.exec();
    }
    if (headless) {
        const QSize size = checking && !cli.isSet(size_opt) ? lesson_check::kDefaultProjector
                                                            : lesson_check::parseSize(cli.value(size_opt));
        if (!size.isValid()) {
            std::fprintf(stderr, "inflight: error: bad --size '%s' (e.g. 1920x1080)\n",
                         qPrintable(cli.value(size_opt)));
            return 2;
        }
        if (checking) {
            const lesson_check::BeatRange beats =
                cli.isSet(beats_opt) ? lesson_check::parseBeats(cli.value(beats_opt)) : lesson_check::BeatRange{};
            if (!beats.valid) {
                std::fprintf(stderr, "inflight: error: bad --beats '%s' (FROM-TO, FROM- or N; from 1)\n",
                             qPrintable(cli.value(beats_opt)));
                return 2;
            }
            return lesson_check::runCommand(window, controller, cli.value(check_opt), size, beats);
        }
        window.resize(size);
    }
    if (cli.isSet(export_opt)) {
        window.show();
        // The step's graph is drawn once the index, any seek under way and its layout are in.
        QElapsedTimer clock;
        clock.start();
        while (controller.hasScene() &&
               (!controller.indexReady() || controller.isBusy() || !window.graph().waitForLayout(50)) &&
               clock.elapsed() < 20000)
            QApplication::processEvents(QEventLoop::AllEvents, 50);
        QString error;
        if (!window.exportGraphPicture(cli.value(export_opt), &error)) {
            std::fprintf(stderr, "inflight: error: %s\n", qPrintable(error));
            return 1;
        }
        return 0;
    }
    if (cli.isSet(lesson_page_opt) || cli.isSet(handout_opt)) {
        window.show();
        QString error;
        const bool written =
            cli.isSet(lesson_page_opt)
                ? lesson::writeWebPage(controller, window.graph(), cli.value(lesson_page_opt), &error)
                : lesson::writeHandout(controller, window.graph(), cli.value(handout_opt),
                                       handout_pages == QLatin1String("beat") ? lesson::HandoutPages::per_beat
                                                                              : lesson::HandoutPages::per_note,
                                       &error);
        if (!written) {
            std::fprintf(stderr, "inflight: error: %s\n", qPrintable(error));
            return 1;
        }
        return 0;
    }
    if (cli.isSet(shot_opt)) {
        window.show();
        // A scene with errors is shown with them marked, and the status says it did not run.
        const bool saved = window.saveScreenshot(cli.value(shot_opt));
        return !window.session().isClean() ? 2 : saved ? 0 : 1;
    }
    // A first launch fills the screen; later ones come back as they were left.
    if (window.restoredGeometry())
        window.show();
    else
        window.showMaximized();
    return QApplication::exec();
}
