% ---- safe_div

safe_div([A,B],[R],H0,Hout,E,safe_div(1,[T1])) :-
    safe_div_try3([A,B],[R],H0,Hout,E,T1).

safe_div_except1([Exc],[R],H0,Hout,E,safe_div_except1(1,[T1])) :-
    Exc6 = Exc,
    safe_div_except1_c([Exc6],[R],H0,Hout,E,T1).

safe_div_except1_c([Exc6],[R],H0,Hout,E,safe_div_except1_c(1,[T1])) :-
    exc_instance_of(Exc6,['ZeroDivisionError']),
    safe_div_handler7([],[R],H0,Hout,E,T1).
safe_div_except1_c([Exc6],[R],H0,Hout,E,safe_div_except1_c(2,[T1])) :-
    \+ exc_instance_of(Exc6,['ZeroDivisionError']),
    safe_div_except8([Exc6],[R],H0,Hout,E,T1).

safe_div_after_try2([Q],[R],H0,H0,ok,safe_div_after_try2(1,[])) :-
    R #= Q.   % line 6

% exceptions raised in its body go to safe_div_except1
safe_div_try3([A,B],[R],H0,Hout,E,safe_div_try3(1,[T1,T2])) :-
    int_floordiv([A,B],[X4],H0,H1,ok,T1),
    Q #= X4,
    safe_div_try_done5([Q],[R],H1,Hout,E,T2).   % line 3

safe_div_try_done5([Q],[R],H0,Hout,E,safe_div_try_done5(1,[T1])) :-
    safe_div_after_try2([Q],[R],H0,Hout,E,T1).

safe_div_handler7([],[R],H0,Hout,E,safe_div_handler7(1,[T1])) :-
    Q #= 0,
    safe_div_after_try2([Q],[R],H0,Hout,E,T1).   % line 5

safe_div_except8([Exc6],[_],H0,H0,E,safe_div_except8(1,[])) :-
    E = Exc6.

% ---- builtins

int_floordiv([A,B],[R],H0,H0,ok,int_floordiv(1,[])) :-
    B #\= 0,
    R #= (A // B).
int_floordiv([A,B],[_],H0,H0,E,int_floordiv(2,[])) :-
    B #= 0,
    E = exc('ZeroDivisionError').
