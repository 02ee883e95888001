// SPDX-License-Identifier: GPL-3.0-or-later
// The fixed parts of every program export-c writes: its header comment, the helpers that perform
// one statement and check its errno, the census that judges sockets alive or freed by inode, and
// main()'s start and end. Nothing from a scene is in them; export_c.cpp adds the scene's text as
// string literals (c_literal) between them. Written for Inflight; the selftest it imitates
// (scm_rights.c) only inspired its shape.
#pragma once

namespace inflight::realkernel {

inline constexpr const char *kExportHeader = R"C(// SPDX-License-Identifier: GPL-3.0-or-later
/* Written by inflight-cli export-c: a scene performed with real AF_UNIX syscalls in a fresh
 * network namespace. Every statement's errno and, after each close, recv and gc, every socket's
 * fate (found by inode in /proc/net/unix and UNIX_DIAG) are checked against the model. The
 * scene's title, its file and the model are the strings scene_title, scene_file and model_name
 * below; the program prints them when it starts, and each note of the scene as it reaches it.
 *
 * Build: cc -static -O2 -o scene scene.c   Run as root (or where user namespaces are allowed).
 * Usage: ./scene [--allow-host-namespace]
 *   --allow-host-namespace  where no fresh network namespace can be made, run in the current
 *                           one; its other sockets then count in the census, and the scene's
 *                           addresses may reach the host's sockets.
 * Exit 0: the kernel did what the model predicts; 1: it did not (each FAIL line says where);
 * 2: a bad argument; 3: no fresh network namespace could be made (the reason is printed).
 */
)C";

inline constexpr const char *kExportRuntime = R"C(#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#ifndef SO_PASSRIGHTS
#define SO_PASSRIGHTS 83 /* Linux 6.16 */
#endif

#define MAX_NAMES 1024
/* An unaccepted embryo has no inode: its listener's UNIX_DIAG_ICONS names it by its client's. */
#define EMBRYO_OF (1UL << 63)
#define HELPER static __attribute__((unused))
#define STABLE_MS 100
#define MAX_WAIT_MS 1000

/* The scene's descriptor names (-1 once closed, so a closed name gives EBADF) and the sockets'
 * labels with their inodes, which is how a socket without any descriptor is found again. */
static struct { const char *name; int fd; } names[MAX_NAMES];
HELPER int nnames;
static struct { const char *label; unsigned long ino; } labels[MAX_NAMES];
HELPER int nlabels;
HELPER int failures;
HELPER int diag_fd = -1;

HELPER int fd_of(const char *name)
{
	for (int i = 0; i < nnames; i++)
		if (!strcmp(names[i].name, name))
			return names[i].fd;
	return -1;
}

HELPER void define_name(const char *name, int fd)
{
	for (int i = 0; i < nnames; i++)
		if (!strcmp(names[i].name, name)) {
			names[i].fd = fd;
			return;
		}
	if (nnames < MAX_NAMES) {
		names[nnames].name = name;
		names[nnames++].fd = fd;
	}
}

HELPER unsigned long inode_of(int fd)
{
	struct stat st;

	return fstat(fd, &st) ? 0 : (unsigned long)st.st_ino;
}

static const char *label_of(unsigned long ino)
{
	for (int i = 0; i < nlabels; i++)
		if (labels[i].ino == ino)
			return labels[i].label;
	return "?";
}

HELPER void add_label(const char *label, unsigned long ino)
{
	if (!ino || nlabels == MAX_NAMES)
		return;
	for (int i = 0; i < nlabels; i++)
		if (labels[i].ino == ino)
			return;
	labels[nlabels].label = label;
	labels[nlabels++].ino = ino;
}

HELPER unsigned long label_inode(const char *label)
{
	for (int i = 0; i < nlabels; i++)
		if (!strcmp(labels[i].label, label))
			return labels[i].ino;
	return 0;
}

HELPER void check_errno(int line, const char *stmt, int got, int want)
{
	if (got == want)
		return;
	failures++;
	printf("FAIL line %d: %s: expected %s, got %s\n", line, stmt, want ? strerror(want) : "success",
	       got ? strerror(got) : "success");
}

HELPER socklen_t abstract_addr(const char *name, struct sockaddr_un *sa)
{
	size_t n = strlen(name);

	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	if (n > sizeof(sa->sun_path) - 1)
		n = sizeof(sa->sun_path) - 1;
	memcpy(sa->sun_path + 1, name, n);
	return offsetof(struct sockaddr_un, sun_path) + 1 + n;
}

/* ---- UNIX_DIAG: a dump of every socket of the namespace. With peer_for set, returns the peer
 * inode of that socket (0: none); otherwise fills out[] with every inode and, tagged, every
 * embryo the listeners show, and returns how many (-1: no UNIX_DIAG). */
HELPER long diag_dump(unsigned long peer_for, unsigned long *out, int max)
{
	struct {
		struct nlmsghdr nlh;
		struct unix_diag_req req;
	} r;
	struct sockaddr_nl to = { .nl_family = AF_NETLINK };
	static char buf[32768] __attribute__((aligned(8)));
	long n = 0;

	memset(&r, 0, sizeof(r));
	r.nlh.nlmsg_len = sizeof(r);
	r.nlh.nlmsg_type = SOCK_DIAG_BY_FAMILY;
	r.nlh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	r.req.sdiag_family = AF_UNIX;
	r.req.udiag_states = ~0u;
	r.req.udiag_show = peer_for ? UDIAG_SHOW_PEER : UDIAG_SHOW_ICONS;
	if (diag_fd < 0 || sendto(diag_fd, &r, sizeof(r), 0, (struct sockaddr *)&to, sizeof(to)) != sizeof(r))
		return -1;
	for (;;) {
		int len = (int)recv(diag_fd, buf, sizeof(buf), 0);
		struct nlmsghdr *h;

		if (len <= 0)
			return -1;
		for (h = (struct nlmsghdr *)buf; NLMSG_OK(h, len); h = NLMSG_NEXT(h, len)) {
			struct unix_diag_msg *m = NLMSG_DATA(h);
			struct rtattr *a = (struct rtattr *)(m + 1);
			int alen = (int)(h->nlmsg_len - NLMSG_LENGTH(sizeof(*m)));

			if (h->nlmsg_type == NLMSG_DONE)
				return n;
			if (h->nlmsg_type == NLMSG_ERROR)
				return -1;
			if (peer_for && m->udiag_ino != peer_for)
				continue;
			if (!peer_for && n < max)
				out[n++] = m->udiag_ino;
			for (; RTA_OK(a, alen); a = RTA_NEXT(a, alen)) {
				unsigned int *v = RTA_DATA(a);
				int cnt = (int)(RTA_PAYLOAD(a) / sizeof(unsigned int));

				if (a->rta_type == UNIX_DIAG_PEER && peer_for)
					n = v[0];
				if (a->rta_type == UNIX_DIAG_ICONS && !peer_for)
					for (int i = 0; i < cnt && n < max; i++)
						out[n++] = EMBRYO_OF | v[i];
			}
		}
	}
}

/* The peer of the socket behind fd (the client, for an accepted socket). */
HELPER unsigned long peer_of(int fd)
{
	long p = diag_dump(inode_of(fd), NULL, 0);

	return p > 0 ? (unsigned long)p : 0;
}

/* Every AF_UNIX inode the namespace shows: /proc/net/unix plus the dump with ICONS. */
HELPER int census(unsigned long *out, int max)
{
	char line[1024];
	int n = 0;
	FILE *f = fopen("/proc/net/unix", "re");

	if (f) {
		if (fgets(line, sizeof(line), f))
			while (n < max && fgets(line, sizeof(line), f)) {
				char num[32];
				unsigned long ref, proto, flags, type, st, ino;

				if (sscanf(line, "%31s %lx %lx %lx %lx %lx %lu", num, &ref, &proto, &flags, &type, &st,
					   &ino) == 7)
					out[n++] = ino;
			}
		fclose(f);
	}
	if (diag_fd >= 0) {
		long d = diag_dump(0, out + n, max - n);

		if (d > 0)
			n += (int)d;
	}
	return n;
}

HELPER int has(const unsigned long *set, int n, unsigned long ino)
{
	for (int i = 0; i < n; i++)
		if (set[i] == ino)
			return 1;
	return 0;
}

HELPER long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

HELPER unsigned long cur[4 * MAX_NAMES], prev[4 * MAX_NAMES];

/* Waits until the socket set has not changed for STABLE_MS (the kernel's collector is queued
 * work, and fput after it is deferred), at most MAX_WAIT_MS; returns its size in cur[]. */
HELPER int settle(void)
{
	long start = now_ms(), changed = start;
	int n = census(prev, 4 * MAX_NAMES);

	for (;;) {
		struct timespec ten = { 0, 10 * 1000000L };
		int m;

		if (now_ms() - changed >= STABLE_MS || now_ms() - start >= MAX_WAIT_MS)
			break;
		nanosleep(&ten, NULL);
		m = census(cur, 4 * MAX_NAMES);
		if (m != n || memcmp(cur, prev, sizeof(cur[0]) * (size_t)m)) {
			memcpy(prev, cur, sizeof(cur[0]) * (size_t)m);
			n = m;
			changed = now_ms();
		}
	}
	memcpy(cur, prev, sizeof(cur[0]) * (size_t)n);
	return n;
}

/* expect: a NULL-terminated list of label, 'a' (alive), 'f' (freed) or 'g' (garbage no
 * collection has looked at yet: the collector is global, so a close anywhere on the host may
 * free it early, and either fate is right). */
HELPER int fates_match(const char *const *expect, int n)
{
	for (int i = 0; expect[i]; i += 2) {
		unsigned long ino = label_inode(expect[i]);
		int alive = ino && has(cur, n, ino);

		if (expect[i + 1][0] != 'g' && alive != (expect[i + 1][0] == 'a'))
			return 0;
	}
	return 1;
}

HELPER void check_fates(int line, const char *stmt, const char *const *expect)
{
	/* A loaded host runs the collector's kworker late: while the set is stable but not yet
	 * what the model says, look again, up to MAX_WAIT_MS. What it shows then is judged. */
	long start = now_ms();
	int n = settle();

	while (!fates_match(expect, n) && now_ms() - start < MAX_WAIT_MS)
		n = settle();
	for (int i = 0; expect[i]; i += 2) {
		unsigned long ino = label_inode(expect[i]);
		int alive = ino && has(cur, n, ino);
		int want = expect[i + 1][0] != 'f';

		if (alive == want || expect[i + 1][0] == 'g')
			continue;
		failures++;
		printf("FAIL line %d: after %s: socket %s is %s, the model says %s\n", line, stmt, expect[i],
		       alive ? "alive" : "freed", want ? "alive" : "freed");
	}
}

HELPER void gc(void)
{
	/* What a program can do to make the kernel collect: release an unrelated AF_UNIX socket. */
	int fd = socket(AF_UNIX, SOCK_DGRAM, 0);

	if (fd >= 0)
		close(fd);
}

/* Writes one line to a /proc/self file of the new user namespace; a failure leaves the ids
 * unmapped, which this program does not need (it only creates sockets). */
HELPER void write_proc_self(const char *file, const char *text)
{
	int fd = open(file, O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	if (write(fd, text, strlen(text)) < 0)
		fprintf(stderr, "note: %s: %s\n", file, strerror(errno));
	close(fd);
}

/* A fresh network namespace starts with no AF_UNIX sockets: the census sees only the scene's,
 * what it leaks stays out of the host's count, and no address it binds or connects to can reach
 * a socket of the host. Returns 0 in one. Where none can be made it says why and returns -1,
 * unless allow_host: then it says so and returns 0 in the current namespace. */
HELPER int enter_namespace(int allow_host)
{
	char map[64];
	int err_net, err_user;
	unsigned int uid = (unsigned int)geteuid(), gid = (unsigned int)getegid();

	if (!unshare(CLONE_NEWNET))
		return 0;
	err_net = errno;
	if (!unshare(CLONE_NEWUSER | CLONE_NEWNET)) {
		write_proc_self("/proc/self/setgroups", "deny");
		snprintf(map, sizeof(map), "0 %u 1\n", uid);
		write_proc_self("/proc/self/uid_map", map);
		snprintf(map, sizeof(map), "0 %u 1\n", gid);
		write_proc_self("/proc/self/gid_map", map);
		return 0;
	}
	err_user = errno;
	fprintf(stderr, "%s: cannot make a fresh network namespace: unshare(CLONE_NEWNET): %s;",
		allow_host ? "note" : "error", strerror(err_net));
	fprintf(stderr, " unshare(CLONE_NEWUSER | CLONE_NEWNET): %s\n", strerror(err_user));
	if (allow_host) {
		fprintf(stderr, "note: --allow-host-namespace: running in the current network namespace\n");
		return 0;
	}
	fprintf(stderr, "error: refusing to run in the current network namespace, where the scene could reach the "
			"host's sockets: run as root or where user namespaces are allowed, or pass "
			"--allow-host-namespace\n");
	return -1;
}

/* A note of the scene, when the program reaches it. */
HELPER void print_note(int line, const char *text)
{
	printf("line %d: %s\n", line, text);
}

HELPER void do_socketpair(int line, const char *stmt, int type, const char *a, const char *b, int want)
{
	int sv[2], err = socketpair(AF_UNIX, type | SOCK_NONBLOCK, 0, sv) ? errno : 0;

	check_errno(line, stmt, err, want);
	if (err)
		return;
	define_name(a, sv[0]);
	define_name(b, sv[1]);
	add_label(a, inode_of(sv[0]));
	add_label(b, inode_of(sv[1]));
}

HELPER void do_socket(int line, const char *stmt, int type, const char *s, int want)
{
	int fd = socket(AF_UNIX, type | SOCK_NONBLOCK, 0);

	check_errno(line, stmt, fd < 0 ? errno : 0, want);
	if (fd < 0)
		return;
	define_name(s, fd);
	add_label(s, inode_of(fd));
}

HELPER void do_bind(int line, const char *stmt, const char *s, const char *addr, int want)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	socklen_t len = addr ? abstract_addr(addr, &sa) : sizeof(sa_family_t);

	check_errno(line, stmt, bind(fd_of(s), (struct sockaddr *)&sa, len) ? errno : 0, want);
}

HELPER void do_listen(int line, const char *stmt, const char *s, int want)
{
	check_errno(line, stmt, listen(fd_of(s), -1) ? errno : 0, want);
}

/* embryo_label: the label the server side's new socket gets ("embryo(c)"). */
HELPER void do_connect(int line, const char *stmt, const char *c, const char *addr, const char *target,
		       const char *embryo_label, int want)
{
	struct sockaddr_un sa;
	socklen_t len = sizeof(sa);
	int err = 0;

	memset(&sa, 0, sizeof(sa));
	if (addr)
		len = abstract_addr(addr, &sa);
	else if (getsockname(fd_of(target), (struct sockaddr *)&sa, &len))
		err = errno;
	if (!err && connect(fd_of(c), (struct sockaddr *)&sa, len))
		err = errno;
	check_errno(line, stmt, err, want);
	if (!err && embryo_label)
		add_label(embryo_label, EMBRYO_OF | inode_of(fd_of(c)));
}

HELPER void do_accept(int line, const char *stmt, const char *l, const char *s, int want)
{
	int fd = accept4(fd_of(l), NULL, NULL, SOCK_NONBLOCK);

	check_errno(line, stmt, fd < 0 ? errno : 0, want);
	if (fd < 0)
		return;
	define_name(s, fd);
	/* The embryo now has a file: its label moves from the client's key to its own inode. */
	unsigned long client = peer_of(fd);

	for (int i = 0; i < nlabels; i++)
		if (client && labels[i].ino == (EMBRYO_OF | client))
			labels[i].ino = inode_of(fd);
}

/* fds: a NULL-terminated list of names. */
HELPER void do_send(int line, const char *stmt, const char *s, const char *const *fds, int nfds, size_t bytes,
		    int oob, const char *to, int want)
{
	static char payload[65536];
	char control[CMSG_SPACE(sizeof(int) * 256)];
	struct iovec iov = { payload, bytes };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct sockaddr_un sa;
	ssize_t n;

	memset(payload, 'x', bytes);
	if (to) {
		msg.msg_name = &sa;
		msg.msg_namelen = abstract_addr(to, &sa);
	}
	if (nfds >= 0) {
		struct cmsghdr *c;

		memset(control, 0, sizeof(control));
		msg.msg_control = control;
		msg.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)nfds);
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)nfds);
		for (int i = 0; i < nfds; i++) {
			int fd = fd_of(fds[i]);

			memcpy(CMSG_DATA(c) + i * sizeof(int), &fd, sizeof(fd));
		}
		if (!nfds)
			msg.msg_control = NULL, msg.msg_controllen = 0;
	}
	n = sendmsg(fd_of(s), &msg, MSG_DONTWAIT | MSG_NOSIGNAL | (oob ? MSG_OOB : 0));
	check_errno(line, stmt, n < 0 ? errno : 0, want);
}

/* fd_names: the names the received fds get; expect: the labels the model says they are. */
HELPER void do_recv(int line, const char *stmt, const char *s, const char *const *fd_names, int n_names,
		    const char *const *expect, int n_expect, int peek, int oob, int want)
{
	static char data[65536];
	char control[CMSG_SPACE(sizeof(int) * 253)];
	struct iovec iov = { data, sizeof(data) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control,
			      .msg_controllen = sizeof(control) };
	int k = 0;
	ssize_t n = recvmsg(fd_of(s), &msg, MSG_DONTWAIT | (peek ? MSG_PEEK : 0) | (oob ? MSG_OOB : 0));

	check_errno(line, stmt, n < 0 ? errno : 0, want);
	if (n < 0)
		return;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
		int cnt;

		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		cnt = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
		for (int i = 0; i < cnt; i++, k++) {
			int fd;
			const char *got;

			memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(fd));
			got = label_of(inode_of(fd));
			if (k < n_names)
				define_name(fd_names[k], fd);
			if (k < n_expect && strcmp(expect[k], got)) {
				failures++;
				printf("FAIL line %d: %s: fd %d received is socket %s, the model says %s\n", line, stmt,
				       k, got, expect[k]);
			}
		}
	}
	if (k != n_expect) {
		failures++;
		printf("FAIL line %d: %s: received %d fds, the model says %d\n", line, stmt, k, n_expect);
	}
}

HELPER void do_dup(int line, const char *stmt, const char *a, const char *b, int want)
{
	int fd = dup(fd_of(a));

	check_errno(line, stmt, fd < 0 ? errno : 0, want);
	if (fd >= 0)
		define_name(b, fd);
}

/* One close() per name; the statement's result is the first error. */
HELPER void do_close(int line, const char *stmt, const char *const *list, int want)
{
	int err = 0;

	for (int i = 0; list[i]; i++) {
		if (close(fd_of(list[i])) && !err)
			err = errno;
		define_name(list[i], -1);
	}
	check_errno(line, stmt, err, want);
}

HELPER void do_setsockopt(int line, const char *stmt, const char *s, int opt, int on, int want)
{
	check_errno(line, stmt, setsockopt(fd_of(s), SOL_SOCKET, opt, &on, sizeof(on)) ? errno : 0, want);
}
)C";

// main() up to the scene's first statement; scene_title, scene_file and model_name are defined
// before it.
inline constexpr const char *kExportMainBegin = R"C(
static void usage(FILE *to)
{
	fputs("usage: scene [--allow-host-namespace]\n"
	      "Performs a scene of Inflight with real AF_UNIX syscalls in a fresh network namespace and\n"
	      "checks every errno and every socket's fate against the model.\n"
	      "  --allow-host-namespace  where no fresh network namespace can be made, run in the\n"
	      "                          current one (its other sockets then count in the census)\n"
	      "Exit 0: the kernel agrees with the model; 1: it does not; 2: a bad argument;\n"
	      "3: no fresh network namespace could be made.\n",
	      to);
}

int main(int argc, char **argv)
{
	int allow_host_namespace = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--allow-host-namespace")) {
			allow_host_namespace = 1;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		} else {
			fprintf(stderr, "error: unknown argument (argument %d)\n", i);
			usage(stderr);
			return 2;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("scene: %s\nfrom: %s\nmodel: %s\n", scene_title, scene_file, model_name);
	if (enter_namespace(allow_host_namespace))
		return 3;
	diag_fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);

)C";

// main() after the scene's last statement.
inline constexpr const char *kExportMainEnd = R"C(
	if (failures) {
		printf("%d mismatches with the model\n", failures);
		return 1;
	}
	printf("ok: the kernel agrees with the model\n");
	return 0;
}
)C";

} // namespace inflight::realkernel
